package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"maps"
	"slices"

	"github.com/meeple-games/meeple/domain"
)

// A retry older than the game document's recent actions (issue 22: "what
// an older retry gets — a clear 409, never a second application").
//
// acts keeps the last ActKeep actions; an action that leaves it leaves a
// fingerprint behind, the first 2 bytes of its key's hash, in the game
// document's field "oldActs" (bytes, 2 per action, oldest first). An action
// whose key is not in acts but whose fingerprint is in oldActs may be a retry:
// the store looks for its key among the steps the game keeps — the log, and
// the history batches and event records, which carry their steps' keys in
// "keys" (one query, one read) — and refuses it with a 409 when it finds it.
// A fingerprint shared by chance costs that one read and nothing else (about
// n/65,536 of a game's actions after n have left acts: a 12-player Party
// Board game's last action 0.8 %). A game document keeps OldActsKeep
// fingerprints at most (8 KB); a retry older than that is recognised only
// with `version`, as every retry was before.
//
// A step's key is its actor's and its action id's: an `advance`, whose steps
// are the system's expiries, is found by none, and sent again applies only
// deadlines that passed since, which is what it is for.
//
// Why not a read per action: every action would pay it (issue 22's ≤ 1.05
// reads). Why in the game document: it is the one document every action of
// the game reads anyway (warm.go); every listener's snapshot carries it, 2
// bytes an action (a DashDice match's last snapshot 40 bytes more, a
// 12-player Party Board game's 1.1 KB).
const (
	fOldActs = "oldActs"
	fKeys    = "keys"
	// OldActsKeep is how many fingerprints of actions that left acts the game
	// document keeps.
	OldActsKeep = 4096
)

// keySum is the hash an action's key comes from: of its actor and action id
// (an action id may be 128 characters; acts holds ActKeep of them).
func keySum(actorID, actionID string) [sha256.Size]byte {
	return sha256.Sum256([]byte(actorID + "~" + actionID))
}

// keyOf is the key of the action actionID of actorID, in acts and in the
// "keys" of the history.
func keyOf(actorID, actionID string) string {
	sum := keySum(actorID, actionID)
	return hex.EncodeToString(sum[:8])
}

// actKey is the key of an action in acts.
func actKey(a domain.Action) string { return keyOf(a.Actor.ID, a.ID) }

// fingerprint is what oldActs keeps of a key: its first 2 bytes.
func fingerprint(key string) ([]byte, bool) {
	b, err := hex.DecodeString(key[:min(len(key), 4)])
	return b, err == nil && len(b) == 2
}

// withOldActs is oldActs after adding one action to acts: the fingerprints of the
// entries it pushes out appended (a create's, marked Priv, is recognised
// from the game's server-only document for ever and needs none), the oldest dropped past
// OldActsKeep. ok is false when nothing changed.
func withOldActs(old []byte, acts []actEntry) (out []byte, ok bool) {
	drop := len(acts) + 1 - ActKeep
	if drop <= 0 {
		return old, false
	}
	out = append([]byte{}, old...)
	for _, e := range acts[:drop] {
		if fp, fine := fingerprint(e.Key); fine && !e.Priv {
			out, ok = append(out, fp...), true
		}
	}
	if len(out) > 2*OldActsKeep {
		out = out[len(out)-2*OldActsKeep:]
	}
	return out, ok
}

// mayHaveActed reports whether key's fingerprint is in oldActs.
func (pl platformLog) mayHaveActed(key string) bool {
	fp, ok := fingerprint(key)
	if !ok {
		return false
	}
	for i := 0; i+1 < len(pl.OldActs); i += 2 {
		if pl.OldActs[i] == fp[0] && pl.OldActs[i+1] == fp[1] {
			return true
		}
	}
	return false
}

// stepKey is the key of the action that made step s; false for a step no
// action id names (an expiry the tick applied).
func stepKey(s logStep) (string, bool) {
	actor, _ := s.Actor["id"].(string)
	if s.ActionID == "" || actor == "" {
		return "", false
	}
	return keyOf(actor, s.ActionID), true
}

// stepKeys are the keys of the actions that made steps, for the "keys" of
// the document that keeps them.
func stepKeys(steps []logStep) []string {
	var keys []string
	for _, s := range steps {
		if k, ok := stepKey(s); ok {
			keys = append(keys, k)
		}
	}
	return keys
}

// withKeys is fields (a document's, or nil) with keys added to its "keys",
// each once: a copy, fields itself unchanged; fields as it is when keys is
// empty.
func withKeys(fields map[string]any, keys ...string) map[string]any {
	if len(keys) == 0 {
		return fields
	}
	have, _ := fields[fKeys].([]string)
	all := slices.Clone(have)
	for _, k := range keys {
		if !slices.Contains(all, k) {
			all = append(all, k)
		}
	}
	out := maps.Clone(fields)
	if out == nil {
		out = map[string]any{}
	}
	out[fKeys] = all
	return out
}

// appliedLongAgo reports whether the action of key, no longer among the
// game document's recent actions, made a step of the game: in the log pl
// holds, or in a document of the game's events (a batch or a record, by
// their keys). Those documents are written once, in the commit of the game
// document that hands them over, so reading them outside the action's
// transaction is as good as in it: a step the game document pl came from
// does not hold is in one of them already.
func (st *Store) appliedLongAgo(ctx context.Context, gameID, key string, pl platformLog) (bool, error) {
	for _, s := range pl.Log {
		f, err := s.full()
		if err != nil {
			return false, err
		}
		if k, ok := stepKey(f); ok && k == key {
			return true, nil
		}
	}
	snaps, err := st.gameRef(gameID).Collection(colEvents).Where(fKeys, "array-contains", key).Limit(1).Documents(ctx).GetAll()
	if err != nil {
		return false, err
	}
	return len(snaps) > 0, nil
}

// appliedBefore is what a retry the game recognises only by its key among
// the steps gets: a 409, never a second application.
func appliedBefore(a domain.Action) error {
	return domain.Errorf(domain.ECONFLICT,
		"actionId %q was already applied, %d or more actions ago; its reply is no longer kept: read the game instead", a.ID, ActKeep)
}
