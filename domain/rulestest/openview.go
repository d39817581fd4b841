package rulestest

import (
	"bytes"
	"compress/flate"
	"crypto/aes"
	"crypto/cipher"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"io"
	"strings"
)

// OpenWithKey opens text sealed under label with key (base64url), as a
// client opens its view with the key action viewKey gives it (docs/api.md
// "viewKey"; web/src/pages/hexfog.ts openView): written from that recipe
// alone, apart from domain.SeededSealer, so the tests that use it check the
// recipe the docs give clients. An error means the key does not open it.
func OpenWithKey(key, label, text string) ([]byte, error) {
	k, err := base64.RawURLEncoding.DecodeString(key)
	if err != nil {
		return nil, err
	}
	raw, err := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(text, "s1."))
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(k)
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	if len(raw) < gcm.NonceSize() {
		return nil, errors.New("too short")
	}
	body, err := gcm.Open(nil, raw[:gcm.NonceSize()], raw[gcm.NonceSize():], []byte(label))
	if err != nil {
		return nil, err
	}
	if len(body) < 4 {
		return nil, errors.New("no length")
	}
	n := binary.BigEndian.Uint32(body)
	if int64(n) > int64(len(body)-4) {
		return nil, errors.New("bad length")
	}
	return io.ReadAll(flate.NewReader(bytes.NewReader(body[4 : 4+n])))
}
