package store

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"
)

// valueParser parses the JSON text json.Marshal writes (compact, valid
// UTF-8) into the values Firestore stores (firestoreValue), in one pass:
// encoding/json's decoder into interface values, then a second walk turning
// its json.Numbers into int64 or float64, took twice as long (a Tile Race
// completion's events: 11 µs against 5, BenchmarkFirestoreValue; every
// document a game writes besides its game document goes through it). It
// reports false for anything else (white space between tokens, text that
// is not JSON, a number past a float's range); the caller then hands the
// text to encoding/json.
type valueParser struct {
	b []byte
	i int
}

// value parses the value at p.i and moves past it.
func (p *valueParser) value() (any, bool) {
	if p.i >= len(p.b) {
		return nil, false
	}
	switch c := p.b[p.i]; c {
	case '{':
		p.i++
		m := map[string]any{}
		if p.eat('}') {
			return m, true
		}
		for {
			k, ok := p.str()
			if !ok || !p.eat(':') {
				return nil, false
			}
			v, ok := p.value()
			if !ok {
				return nil, false
			}
			m[k] = v
			if p.eat(',') {
				continue
			}
			return m, p.eat('}')
		}
	case '[':
		p.i++
		a := []any{}
		if p.eat(']') {
			return a, true
		}
		for {
			v, ok := p.value()
			if !ok {
				return nil, false
			}
			a = append(a, v)
			if p.eat(',') {
				continue
			}
			return a, p.eat(']')
		}
	case '"':
		return p.str()
	case 't':
		return true, p.word("true")
	case 'f':
		return false, p.word("false")
	case 'n':
		return nil, p.word("null")
	}
	return p.number()
}

// number parses a number: int64 when it is whole and fits, else float64,
// as json.Number's Int64 and then Float64 decide.
func (p *valueParser) number() (any, bool) {
	j, whole := p.i, true
	for ; j < len(p.b); j++ {
		c := p.b[j]
		if c == '.' || c == 'e' || c == 'E' {
			whole = false
		} else if c != '-' && c != '+' && (c < '0' || c > '9') {
			break
		}
	}
	tok := string(p.b[p.i:j])
	if tok == "" || tok[0] == '+' {
		return nil, false
	}
	p.i = j
	if whole {
		if n, err := strconv.ParseInt(tok, 10, 64); err == nil {
			return n, true
		}
	}
	f, err := strconv.ParseFloat(tok, 64)
	return f, err == nil
}

// str parses a string; one with escapes is unquoted by encoding/json.
func (p *valueParser) str() (string, bool) {
	if p.i >= len(p.b) || p.b[p.i] != '"' {
		return "", false
	}
	escaped := false
	j := p.i + 1
	for ; j < len(p.b); j++ {
		c := p.b[j]
		if c == '\\' {
			escaped = true
			j++
		} else if c == '"' {
			break
		} else if c < 0x20 {
			return "", false
		}
	}
	if j >= len(p.b) {
		return "", false
	}
	raw := p.b[p.i : j+1]
	p.i = j + 1
	if !escaped {
		inner := raw[1 : len(raw)-1]
		return string(inner), utf8.Valid(inner)
	}
	var s string
	return s, json.Unmarshal(raw, &s) == nil
}

// eat moves past c when it is next.
func (p *valueParser) eat(c byte) bool {
	if p.i < len(p.b) && p.b[p.i] == c {
		p.i++
		return true
	}
	return false
}

// word moves past the literal w when it is next.
func (p *valueParser) word(w string) bool {
	if bytes.HasPrefix(p.b[p.i:], []byte(w)) {
		p.i += len(w)
		return true
	}
	return false
}
