package functions

import (
	"testing"

	"github.com/meeple-games/meeple/domain"
)

// FuzzDecodeEnvelope: no input makes decoding panic, and every refusal is an
// EINVALID a client can read. Run longer with
// go test -fuzz FuzzDecodeEnvelope ./functions.
func FuzzDecodeEnvelope(f *testing.F) {
	for _, s := range []string{
		`{"gameId":"g","actionId":"a","type":"roll"}`,
		`{"gameId":"g","actionId":"a","type":"roll","version":3}`,
		`{"type":"create","mode":"classic","turnSeconds":30}`,
		`{"gameId":1}`, `{"version":"x"}`, `[]`, `{}`, ``, `{"type":"a"}{}`, `{"type":"\u0000"}`,
		`{"version":1e400}`, `{"type":"roll","gameId":"a/b"}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		env, err := DecodeEnvelope(body)
		if err != nil {
			if got := domain.ErrorCode(err); got != domain.EINVALID {
				t.Fatalf("code = %q for %q, want %q", got, body, domain.EINVALID)
			}
			if domain.ErrorMessage(err) == "" {
				t.Fatalf("no message for %q", body)
			}
			return
		}
		if env.Type == "" {
			t.Fatalf("accepted %q without a type", body)
		}
	})
}
