package domain

import (
	"encoding/json"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// secretState is a toy hidden-information game: each player has a secret
// number; "guess" reveals nothing but bumps a public counter, "peek" shows
// the caller its own secret in its view.
type secretState struct {
	Hidden  bool           `json:"hidden"`
	Players []string       `json:"players"`
	Secret  map[string]int `json:"secret,omitempty"`
	Moves   int            `json:"moves"`
}

type secretRules struct{}

func (secretRules) Kind() string { return "secret" }
func (secretRules) Header(s secretState) Header {
	return Header{Status: StatusActive, Players: s.Players}
}
func (secretRules) Apply(s secretState, a Action, env Env) (secretState, Outcome, error) {
	n := secretState{Hidden: s.Hidden, Players: s.Players, Secret: map[string]int{}, Moves: s.Moves + 1}
	for k, v := range s.Secret {
		n.Secret[k] = v
	}
	n.Secret[a.Actor.ID]++
	return n, Outcome{Events: []Event{{Type: "bumped", Player: a.Actor.ID, Data: map[string]int{"secret": n.Secret[a.Actor.ID]}}},
		Result: map[string]int{"secret": n.Secret[a.Actor.ID]}}, nil
}
func (secretRules) Expire(s secretState, env Env) (secretState, Outcome, error) {
	return s, Outcome{}, nil
}
func (secretRules) Legal(s secretState, a Actor) []Move {
	return []Move{{Type: "bump", Payload: map[string]any{"known": len(s.Secret)}}}
}

func secretHidden() *Hidden[secretState] {
	return &Hidden[secretState]{
		Hides:   func(s secretState) bool { return s.Hidden },
		Public:  func(s secretState) secretState { s.Secret = nil; return s },
		Viewers: func(s secretState) []string { return s.Players },
		View:    func(s secretState, v string) any { return map[string]int{"mine": s.Secret[v]} },
		Mask: func(s secretState, v string) secretState {
			s.Secret = map[string]int{v: s.Secret[v]}
			return s
		},
		Events: func(_, _ secretState, evs []Event, v string) []Event {
			out := []Event{}
			for _, e := range evs {
				if e.Player == v {
					out = append(out, e)
				} else {
					out = append(out, Event{Type: e.Type, Player: e.Player})
				}
			}
			return out
		},
		Reply: func(s secretState, caller string, r any) any { return r },
	}
}

// TestHiddenSingle: a hidden game's game document holds the public
// projection, private/state the whole state, each view its viewer's; the
// steps' events are neutral; a view that did not change, and whose player
// saw no more than the neutral account, is not written;
// legal lists from the caller's mask; the first run asks for private/state.
func TestHiddenSingle(t *testing.T) {
	g := Single(SingleGame[secretState]{Rules: secretRules{}, Hidden: secretHidden()})
	names := map[string]bool{}
	for _, s := range g.Slots() {
		names[s.Name+"/"+string(s.Access)] = true
	}
	require.True(t, names["hiddenState/never"] && names["view/owner"], "%v", names)

	full := secretState{Hidden: true, Players: []string{"a", "b"}, Secret: map[string]int{"a": 7, "b": 9}}
	pub := secretHidden().Public(full)
	d := NewDocs()
	gd, _ := json.Marshal(GameDoc[secretState]{Kind: "secret", Version: 4, State: pub})
	d.Put(GameDocID, gd)
	act := Action{ID: "x", Type: "bump", Actor: Actor{ID: "a"}}
	_, err := g.Run(d, act, Env{Now: time.Unix(0, 0)})
	var need *NeedDocs
	require.ErrorAs(t, err, &need, "the first run asks for private/state")
	require.Equal(t, []Read{{DocID: Doc(SlotHiddenState, ""), Snapshot: true}}, need.Reads)
	hd, _ := json.Marshal(HiddenDoc[secretState]{Version: 4, State: full})
	d.Put(Doc(SlotHiddenState, ""), hd)

	ch, err := g.Run(d, act, Env{Now: time.Unix(0, 0)})
	require.NoError(t, err)
	byDoc := map[DocID]Write{}
	for _, w := range ch.Writes {
		byDoc[w.DocID] = w
	}
	require.Len(t, ch.Writes, 3, "game, private/state, a's view: b saw a's step only as the neutral account, which the game document's log carries")
	require.Nil(t, byDoc[GameDocID].Value.(secretState).Secret, "the game document holds the projection")
	require.Equal(t, 8, byDoc[Doc(SlotHiddenState, "")].Value.(HiddenDoc[secretState]).State.Secret["a"])
	view := byDoc[Doc(SlotView, "a")].Value.(ViewDoc)
	require.Equal(t, map[string]int{"mine": 8}, view.View)
	require.Len(t, view.Events, 1)
	require.Equal(t, int64(5), view.Version)
	require.Equal(t, []Event{{Type: "bumped", Player: "a"}}, ch.Steps[0].Events, "the step's events are neutral")
	require.NotContains(t, byDoc, Doc(SlotView, "b"))
	var bSaw []SeenStep
	for _, l := range byDoc[Doc(SlotHiddenState, "")].Value.(HiddenDoc[secretState]).Recent {
		if l.Viewer == "b" {
			bSaw = l.Steps
		}
	}
	require.Len(t, bSaw, 1, "b's recent steps keep the step for b's view's next write")
	require.Equal(t, []Event{{Type: "bumped", Player: "a"}}, bSaw[0].Events)

	// A step that shows b more than the neutral account writes b's view.
	told := secretHidden()
	told.Events = func(_, _ secretState, evs []Event, v string) []Event {
		if v == "" {
			return []Event{}
		}
		return evs
	}
	ch, err = Single(SingleGame[secretState]{Rules: secretRules{}, Hidden: told}).Run(d, act, Env{Now: time.Unix(0, 0)})
	require.NoError(t, err)
	require.Len(t, ch.Writes, 4, "game, private/state, both views: b saw more than the neutral account")

	// A step nobody else sees and that changes no other view writes only
	// the caller's view.
	quiet := secretHidden()
	quiet.Events = func(_, _ secretState, evs []Event, v string) []Event {
		if v == "a" {
			return evs
		}
		return []Event{}
	}
	gq := Single(SingleGame[secretState]{Rules: secretRules{}, Hidden: quiet})
	ch, err = gq.Run(d, act, Env{Now: time.Unix(0, 0)})
	require.NoError(t, err)
	require.Len(t, ch.Writes, 3, "game, private/state, a's view: b's view is unchanged")
	require.Empty(t, ch.Steps[0].Events)

	ch, err = g.Run(d, Action{ID: "l", Type: ActionLegal, Actor: Actor{ID: "b"}}, Env{Now: time.Unix(0, 0)})
	require.NoError(t, err)
	require.Equal(t, 1, ch.Result.(map[string]any)["moves"].([]Move)[0].Payload["known"], "legal sees the caller's mask")

	// Not hiding: one document, as before.
	plain := secretState{Players: []string{"a"}, Secret: map[string]int{}}
	d2 := NewDocs()
	gd, _ = json.Marshal(GameDoc[secretState]{Kind: "secret", Version: 1, State: plain})
	d2.Put(GameDocID, gd)
	ch, err = g.Run(d2, act, Env{Now: time.Unix(0, 0)})
	require.NoError(t, err)
	require.Len(t, ch.Writes, 1)
}

func TestTrimSteps(t *testing.T) {
	big := SeenStep{Seq: 1, Type: "x", Events: []Event{{Type: "e", Data: string(make([]byte, 3000))}}}
	small := SeenStep{Seq: 2, Type: "y", Events: []Event{{Type: "e"}}}
	tests := []struct {
		name string
		in   []SeenStep
		want int
	}{
		{"the last one always", []SeenStep{big, big}, 1},
		{"small ones fit", []SeenStep{small, small, small}, 3},
		{"at most ViewKeep", make([]SeenStep, ViewKeep+5), ViewKeep},
		{"bytes bound", []SeenStep{big, small, small}, 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := trimSteps(tc.in)
			require.Len(t, got, tc.want)
			require.Equal(t, tc.in[len(tc.in)-1], got[len(got)-1], "the latest is kept")
		})
	}
}
