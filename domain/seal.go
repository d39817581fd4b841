package domain

import (
	"bytes"
	"compress/flate"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"io"
	"strings"
	"sync"
)

// Sealer keeps a secret of one player inside a document everyone may read
// (Hex & Dice's orders of a simultaneous round ride in the game document:
// one write per action instead of two). Only the platform holds the key, so
// the text Seal returns tells a reader nothing but its length, rounded up to
// SealBlock bytes. Label names whose secret it is (a player id); Open refuses
// text sealed under another label or another key, or changed in any way.
//
// The platform gives every action one (Env.Seal), keyed by the game's seed,
// and the rules must not otherwise depend on the text: a replay seals again
// and gets the same text.
type Sealer interface {
	Seal(label string, plain []byte) string
	// Open errors: EINTERNAL (not sealed by this game's key for label).
	Open(label, sealed string) ([]byte, error)
}

// deflaters and inflaters keep flate's state between seals: a new writer
// allocates about 800 KB.
var deflaters, inflaters sync.Pool

// SealBlock is the size the sealed bytes are padded to a multiple of.
const SealBlock = 64

const sealPrefix = "s1."

// IsSealed reports whether text is what a SeededSealer seals.
func IsSealed(text string) bool { return strings.HasPrefix(text, sealPrefix) }

// PayloadLabel is the label the platform seals a secret action's payload
// under (Plan.Secret): its actor's.
func PayloadLabel(actorID string) string { return "payload:" + actorID }

// ViewLabel is the label a hidden game's view of one viewer is sealed under
// in its game document (hidden.go). A label of this form is sealed under
// that viewer's own key (SeededSealer.ViewKey), not the game's: the
// platform hands the key to that viewer alone (action viewKey), whose
// client opens the view itself.
func ViewLabel(viewerID string) string { return viewLabelPrefix + viewerID }

const viewLabelPrefix = "view:"

// ViewKeyer is a Sealer that can say a viewer's key (SeededSealer, and the
// platform's sealers built on it).
type ViewKeyer interface {
	// ViewKey is the AES-256 key, base64url without padding, that opens
	// what was sealed under ViewLabel(viewerID).
	ViewKey(viewerID string) (string, error)
}

// ReplyLabel is the label the platform seals an action's reply under where
// it keeps it for a retry in a document others read (a game whose actions
// are secrets, Header.Secret): its actor's.
func ReplyLabel(actorID string) string { return "reply:" + actorID }

// SeededSealer is the Sealer of a game with seed. Its keys are
//
//	key   = HMAC-SHA256(seed, "meeple seal v1 key")
//	nonce = HMAC-SHA256(HMAC-SHA256(seed, "meeple seal v1 nonce"), label 0x00 body)[:12]
//
// and the text is "s1." + base64url(nonce + AES-256-GCM(key, nonce, body,
// label)), where body is the deflated plain text behind its 4-byte length,
// padded with zeros to a multiple of SealBlock. The nonce comes from the body
// itself (a synthetic nonce, as in SIV): sealing is deterministic, and two
// texts share a nonce only when they seal the same body under the same label.
//
// The seed is published when a game that does not keep it ends (docs/
// randomness.md): from then on its sealed texts open for anyone, so a game
// clears what it sealed when it ends.
type SeededSealer struct {
	aead   cipher.AEAD
	nonce  []byte
	digest []byte
	view   []byte // HMAC-SHA256(seed, "meeple view v1"): the viewers' keys' root
}

// NewSeededSealer returns the sealer of a game with seed.
func NewSeededSealer(seed string) *SeededSealer {
	block, err := aes.NewCipher(sealKey(seed))
	if err != nil {
		panic("domain: seal key: " + err.Error()) // 32 bytes: never
	}
	aead, err := cipher.NewGCM(block)
	if err != nil {
		panic("domain: seal: " + err.Error())
	}
	return &SeededSealer{aead: aead, nonce: sealHMAC([]byte(seed), []byte("meeple seal v1 nonce")),
		digest: sealHMAC([]byte(seed), []byte("meeple seal v1 digest")), view: sealHMAC([]byte(seed), []byte("meeple view v1"))}
}

// forViewer is the sealer of what only viewer opens: a SeededSealer whose
// seed is hex(HMAC-SHA256(HMAC-SHA256(seed, "meeple view v1"), viewer)).
// Its key (ViewKey) opens nothing of the game's own nor of another viewer.
func (s *SeededSealer) forViewer(viewer string) *SeededSealer {
	return NewSeededSealer(s.viewSeed(viewer))
}

// viewSeed is the seed of viewer's sealer.
func (s *SeededSealer) viewSeed(viewer string) string {
	return hex.EncodeToString(sealHMAC(s.view, []byte(viewer)))
}

// viewerOf is the viewer a label is of (ViewLabel), false for any other.
func viewerOf(label string) (string, bool) {
	return strings.CutPrefix(label, viewLabelPrefix)
}

// ViewKey implements ViewKeyer: the key of viewer's sealer (forViewer),
//
//	HMAC-SHA256(hex(HMAC-SHA256(HMAC-SHA256(seed, "meeple view v1"), viewer)), "meeple seal v1 key")
//
// with which AES-256-GCM opens a text sealed under ViewLabel(viewer) as
// Seal describes (the nonce first, the label as additional data).
func (s *SeededSealer) ViewKey(viewer string) (string, error) {
	return base64.RawURLEncoding.EncodeToString(sealKey(s.viewSeed(viewer))), nil
}

// Digest is HMAC-SHA256(HMAC-SHA256(seed, "meeple seal v1 digest"), data) in
// hex: a fingerprint of data only the platform can compute, so one of a
// secret (a request hash of orders) can be kept where others read without
// letting them try guesses against it.
func (s *SeededSealer) Digest(data []byte) string {
	return hex.EncodeToString(sealHMAC(s.digest, data))
}

// sealKey is the AES-256 key of the sealer of seed.
func sealKey(seed string) []byte { return sealHMAC([]byte(seed), []byte("meeple seal v1 key")) }

func sealHMAC(key, msg []byte) []byte {
	m := hmac.New(sha256.New, key)
	m.Write(msg)
	return m.Sum(nil)
}

// Seal implements Sealer. A label ViewLabel(v) seals under v's own key.
func (s *SeededSealer) Seal(label string, plain []byte) string {
	if v, ok := viewerOf(label); ok && s.view != nil {
		return s.forViewer(v).sealBody(label, plain)
	}
	return s.sealBody(label, plain)
}

func (s *SeededSealer) sealBody(label string, plain []byte) string {
	var z bytes.Buffer
	z.Write(make([]byte, 4))
	w, _ := deflaters.Get().(*flate.Writer)
	if w == nil {
		w, _ = flate.NewWriter(&z, flate.BestSpeed)
	} else {
		w.Reset(&z)
	}
	w.Write(plain)
	w.Close()
	deflaters.Put(w)
	body := z.Bytes()
	binary.BigEndian.PutUint32(body, uint32(len(body)-4))
	if pad := len(body) % SealBlock; pad != 0 {
		body = append(body, make([]byte, SealBlock-pad)...)
	}
	nonce := sealHMAC(s.nonce, append(append([]byte(label), 0), body...))[:s.aead.NonceSize()]
	out := s.aead.Seal(nonce, nonce, body, []byte(label))
	return sealPrefix + base64.RawURLEncoding.EncodeToString(out)
}

// Open implements Sealer.
//
// Errors: EINTERNAL.
func (s *SeededSealer) Open(label, sealed string) ([]byte, error) {
	if v, ok := viewerOf(label); ok && s.view != nil {
		return s.forViewer(v).openBody(label, sealed)
	}
	return s.openBody(label, sealed)
}

func (s *SeededSealer) openBody(label, sealed string) ([]byte, error) {
	fail := func(why string) ([]byte, error) {
		return nil, Errorf(EINTERNAL, "sealed text for %q: %s", label, why)
	}
	text, ok := strings.CutPrefix(sealed, sealPrefix)
	if !ok {
		return fail("not sealed text")
	}
	raw, err := base64.RawURLEncoding.DecodeString(text)
	n := s.aead.NonceSize()
	if err != nil || len(raw) < n {
		return fail("not sealed text")
	}
	body, err := s.aead.Open(nil, raw[:n], raw[n:], []byte(label))
	if err != nil {
		return fail("not sealed by this game for this label")
	}
	size := int64(binary.BigEndian.Uint32(body))
	if size > int64(len(body)-4) {
		return fail("bad length")
	}
	src := bytes.NewReader(body[4 : 4+size])
	r, _ := inflaters.Get().(io.ReadCloser)
	if r == nil {
		r = flate.NewReader(src)
	} else if err := r.(flate.Resetter).Reset(src, nil); err != nil {
		return fail("does not inflate")
	}
	plain, err := io.ReadAll(r)
	inflaters.Put(r)
	if err != nil {
		return fail("does not inflate")
	}
	return plain, nil
}
