package store

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/require"
)

// TestReplayPayload: what a replay keeps of a payload is the game's own
// fields; never the envelope, a seed, a room code or a password.
func TestReplayPayload(t *testing.T) {
	for _, tc := range []struct {
		name, in, want string
	}{
		{"empty", ``, ``},
		{"nothing of the game's", `{"gameId":"g","actionId":"a","type":"roll","version":3}`, ``},
		{"the game's fields", `{"gameId":"g","type":"move","troop":3,"q":1,"r":-2}`, `{"q":1,"r":-2,"troop":3}`},
		{"no password, seed or room code", `{"type":"createTeam","name":"Reds","password":"hunter22","seed":"s","roomCode":"ABCDEF"}`, `{"name":"Reds"}`},
		{"raw values kept", `{"data":{"b":[1,2],"a":"x"}}`, `{"data":{"b":[1,2],"a":"x"}}`},
		{"not an object", `[1]`, ``},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := replayPayload(json.RawMessage(tc.in))
			require.Equal(t, tc.want, got)
		})
	}
}

// TestIsBatch: a history batch is told by its whole id, "b" and digits; an
// event record keyed by an actor whose id starts with "b" (a Tile Race
// actor's id starts with its game's hex id) is not one.
func TestIsBatch(t *testing.T) {
	for _, tc := range []struct {
		id   string
		want bool
	}{
		{batchID(1), true},
		{batchID(123456789), true},
		{EventID(7), false},
		{"b6de7ac17a9af9df4a6a:ada~start", false},
		{"b6de7ac17a9af9df4a6a:t-37a98f5ac4~r1", false},
		{"bot_1~roll", false},
		{"b", false},
		{"g_1~join", false},
	} {
		t.Run(tc.id, func(t *testing.T) {
			require.Equal(t, tc.want, isBatch(tc.id), "isBatch(%q)", tc.id)
		})
	}
}
