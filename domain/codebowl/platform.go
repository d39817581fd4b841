package codebowl

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/meeple-games/meeple/domain"
)

// Slots of CodeBowl besides the game document (docs/codebowl.md,
// "Documents").
const (
	// SlotTeam is a coach's team, /cbteams/{teamId}: public (guests see
	// teams), written only by the coach's actions and by the matches it
	// plays (lock, deaths, unlock).
	SlotTeam = "team"
	// SlotChat is one chat message of a match, games/{id}/chat/{key}:
	// public, so spectators read the chat; keys sort in sending order.
	SlotChat = "chat"
	// SlotChatLimit is a coach's recent chat sends in a match,
	// games/{id}/chatlimit/{coachId}: the server only.
	SlotChatLimit = "chatLimit"
)

// Action types of CodeBowl besides the rules' own and the platform's.
const (
	// Team actions act on no match (ScopeNone).
	ActionCreateTeam  = "createTeam"
	ActionEditTeam    = "editTeam"
	ActionRestartTeam = "restartTeam"
	// ActionChat posts a chat message in a match (its coaches only).
	ActionChat = "chat"
)

// Chat limits (docs/codebowl.md, "Chat").
const (
	ChatMaxRunes = 280              // a message's length cap, in characters
	ChatBurst    = 5                // messages a coach may send per ChatWindow
	ChatWindow   = 10 * time.Second // the rate limit's sliding window
)

// ChatMessage is the document of one chat message.
type ChatMessage struct {
	From     string    `json:"from"` // the coach's account id
	FromName string    `json:"fromName"`
	Side     Side      `json:"side"`
	Text     string    `json:"text"`
	At       time.Time `json:"at"`
}

// ChatLimit is a coach's recent sends in one match (the server only).
type ChatLimit struct {
	Sent []time.Time `json:"sent"` // within the last ChatWindow, oldest first
}

// CreateRequest is the payload of "create": the coach's team and the
// match options.
type CreateRequest struct {
	TeamID       string `json:"teamId" field:"id"`
	TurnSeconds  int    `json:"turnSeconds" field:"int,min=-1,max=600"` // 0: DefaultTurnSeconds; NoTimer (-1): none; else MinTurnSeconds to MaxTurnSeconds
	TurnsPerHalf int    `json:"turnsPerHalf" field:"int,min=0,max=16"`  // 0: DefaultTurnsPerHalf; at most MaxTurnsPerHalf
	Armor        bool   `json:"armor"`
	Private      bool   `json:"private"`
}

// JoinRequest is the payload of "join" (besides the platform's roomCode).
type JoinRequest struct {
	TeamID string `json:"teamId" field:"id"`
}

// EditTeamRequest is the payload of "editTeam".
type EditTeamRequest struct {
	TeamID string `json:"teamId" field:"id"`
	TeamSpec
}

// RestartTeamRequest is the payload of "restartTeam": one spec per dead
// player in slot order, or none for rookies.
type RestartTeamRequest struct {
	TeamID  string       `json:"teamId" field:"id"`
	Players []PlayerSpec `json:"players" field:"list,max=7"` // at most TeamSize
}

// ChatRequest is the payload of "chat".
type ChatRequest struct {
	Text string `json:"text" field:"text,max=280"` // at most ChatMaxRunes
}

// PlatformGame is CodeBowl as the platform drives it: the match is a
// one-document game (Rules through domain.Single), plus
//
//   - teams as root documents /cbteams/{teamId}, made and changed by the
//     coach's createTeam, editTeam and restartTeam (no match);
//   - create and join read the coach's team, check it and lock it in the
//     same transaction;
//   - every step that kills a player removes him from his team document in
//     the same transaction (RemoveDead), and the step that ends the match
//     unlocks both teams: Run asks for the team documents (NeedDocs) when
//     the steps it made need them;
//   - chat, a per-coach rate-limited message list under the match.
//
// Registered coaches (role player) act; guests may only look (legal) and
// read the public documents.
type PlatformGame struct {
	// Wrap, when set, wraps the rules of every call (tests: rulestest.PureRules).
	Wrap func(domain.Rules[Match]) domain.Rules[Match]
}

var (
	_ domain.Game        = PlatformGame{}
	_ domain.Admitter    = PlatformGame{}
	_ domain.ActionTyper = PlatformGame{}
)

// NewPlatformGame returns CodeBowl's game.
func NewPlatformGame() PlatformGame { return PlatformGame{} }

// Kind implements domain.Game.
func (PlatformGame) Kind() string { return Kind }

// Slots implements domain.Game.
func (PlatformGame) Slots() []domain.Slot {
	return []domain.Slot{
		{Name: SlotTeam, Path: "/cbteams/{key}", Type: Team{}, Access: domain.ReadPublic,
			Doc: "a coach's team, keyed by team id; public, changed only by the coach's actions and the matches it plays"},
		{Name: SlotChat, Path: "chat/{key}", Type: ChatMessage{}, Access: domain.ReadPublic,
			Doc: "one chat message of the match, keys in sending order; spectators read, coaches write through chat"},
		{Name: SlotChatLimit, Path: "chatlimit/{key}", Type: ChatLimit{}, Access: domain.ReadNever,
			Doc: "a coach's chat sends in the last window, keyed by coach id: the rate limit"},
	}
}

// Admit implements domain.Admitter: a registered coach (role player) may do
// anything; a guest only looks ("legal"): guests read the public documents
// (teams, matches, chat, leaderboards) and never write.
//
// Errors: EFORBIDDEN.
func (PlatformGame) Admit(a domain.Actor, gameID, action string) error {
	if err := domain.DefaultAdmit(a, gameID, action); err != nil {
		return err
	}
	if a.Role == domain.RoleGuest && action != domain.ActionLegal {
		return domain.Errorf(domain.EFORBIDDEN, "guests may watch CodeBowl but not %s: register or log in as a coach", action)
	}
	return nil
}

// ActionTypes implements domain.ActionTyper.
func (PlatformGame) ActionTypes() []string {
	return append(domain.SortedKeys(handlers), domain.ActionCreate, domain.ActionJoin,
		domain.ActionQuickMatch, domain.ActionLeaveQueue, ActionCreateTeam, ActionEditTeam, ActionRestartTeam, ActionChat)
}

// TeamKey is the id of the team a coach creates with action id actionID: a
// retried createTeam finds the team it made.
func TeamKey(coach, actionID string) string {
	sum := sha256.Sum256([]byte(coach + "\x00" + actionID))
	return "t" + hex.EncodeToString(sum[:8])
}

func teamDoc(id string) domain.DocID { return domain.Doc(SlotTeam, id) }

// gameRead reads the match as domain.Single does: a snapshot.
var gameRead = domain.Read{DocID: domain.GameDocID, Snapshot: true}

func checkTeamID(id string) error {
	if id == "" {
		return domain.Errorf(domain.EINVALID, "teamId is required")
	}
	return domain.CheckID("teamId", id)
}

// Plan implements domain.Game. Malformed payloads are refused before
// anything is read.
func (p PlatformGame) Plan(a domain.Action) (domain.Plan, error) {
	switch a.Type {
	case ActionCreateTeam:
		var spec TeamSpec
		if err := domain.DecodePayload(a.Payload, &spec); err != nil {
			return domain.Plan{}, err
		}
		if a.ID == "" {
			return domain.Plan{}, domain.Errorf(domain.EINVALID, "actionId is required")
		}
		return domain.Plan{Scope: domain.ScopeNone, Reads: []domain.Read{domain.Locked(teamDoc(TeamKey(a.Actor.ID, a.ID)))}}, nil
	case ActionEditTeam:
		var req EditTeamRequest
		if err := domain.DecodePayload(a.Payload, &req); err != nil {
			return domain.Plan{}, err
		}
		if err := checkTeamID(req.TeamID); err != nil {
			return domain.Plan{}, err
		}
		return domain.Plan{Scope: domain.ScopeNone, Reads: []domain.Read{domain.Locked(teamDoc(req.TeamID))}}, nil
	case ActionRestartTeam:
		var req RestartTeamRequest
		if err := domain.DecodePayload(a.Payload, &req); err != nil {
			return domain.Plan{}, err
		}
		if err := checkTeamID(req.TeamID); err != nil {
			return domain.Plan{}, err
		}
		return domain.Plan{Scope: domain.ScopeNone, Reads: []domain.Read{domain.Locked(teamDoc(req.TeamID))}}, nil
	case domain.ActionCreate:
		var req CreateRequest
		if err := domain.DecodePayload(a.Payload, &req); err != nil {
			return domain.Plan{}, err
		}
		if err := checkTeamID(req.TeamID); err != nil {
			return domain.Plan{}, err
		}
		return domain.Plan{Scope: domain.ScopeCreate, Reads: []domain.Read{gameRead, domain.Locked(teamDoc(req.TeamID))}}, nil
	case domain.ActionJoin:
		if isBotJoin(a) {
			return botJoinPlan(a) // botseat.go
		}
		var req JoinRequest
		if err := domain.DecodePayload(a.Payload, &req); err != nil {
			return domain.Plan{}, err
		}
		if err := checkTeamID(req.TeamID); err != nil {
			return domain.Plan{}, err
		}
		return domain.Plan{Reads: []domain.Read{gameRead, domain.Locked(teamDoc(req.TeamID))}}, nil
	case ActionChat:
		var req ChatRequest
		if err := domain.DecodePayload(a.Payload, &req); err != nil {
			return domain.Plan{}, err
		}
		if _, err := cleanChat(req.Text); err != nil {
			return domain.Plan{}, err
		}
		return domain.Plan{Reads: []domain.Read{gameRead, domain.Locked(domain.Doc(SlotChatLimit, a.Actor.ID))}}, nil
	}
	return domain.Plan{Reads: []domain.Read{gameRead}}, nil
}

// Run implements domain.Game.
func (p PlatformGame) Run(d domain.Docs, a domain.Action, env domain.Env) (domain.Change, error) {
	switch a.Type {
	case ActionCreateTeam:
		return createTeam(d, a)
	case ActionEditTeam:
		return editTeam(d, a)
	case ActionRestartTeam:
		return restartTeam(d, a)
	case ActionChat:
		return chat(d, a, env)
	case domain.ActionCreate:
		return p.create(d, a, env)
	}
	var join *Team
	var botTeamFresh bool
	if isBotJoin(a) { // botseat.go: a bot plays with a team its join makes
		t, fresh, err := botTeam(d, a)
		if err != nil {
			return domain.Change{}, err
		}
		join, botTeamFresh = &t, fresh
	} else if a.Type == domain.ActionJoin {
		var req JoinRequest
		if err := domain.DecodePayload(a.Payload, &req); err != nil {
			return domain.Change{}, err
		}
		t, err := readTeam(d, req.TeamID)
		if err != nil {
			return domain.Change{}, err
		}
		join = &t
	}
	var before Phase // the match's phase as read: the first Apply or Expire sees it
	ch, err := p.single(join, &before).Run(d, a, env)
	if err != nil {
		return domain.Change{}, err
	}
	if err := teamWrites(d, &ch, before, join); err != nil {
		return domain.Change{}, err
	}
	if botTeamFresh {
		w, err := botTeamWrite(*join, a.GameID)
		if err != nil {
			return domain.Change{}, err
		}
		ch.Writes = append(ch.Writes, w)
	}
	return ch, nil
}

// rules are the match rules of one call: Rules, taking "join" with the
// joiner's team as read, and noting the phase of the match it was first
// given (the match as read) in *first.
type rules struct {
	Rules
	join  *Team
	first *Phase
}

func (r rules) note(m Match) {
	if r.first != nil && *r.first == "" {
		*r.first = m.Phase
	}
}

// Expire implements domain.Rules.
func (r rules) Expire(m Match, env domain.Env) (Match, domain.Outcome, error) {
	r.note(m)
	return r.Rules.Expire(m, env)
}

// Apply implements domain.Rules.
func (r rules) Apply(m Match, a domain.Action, env domain.Env) (Match, domain.Outcome, error) {
	r.note(m)
	if a.Type == domain.ActionJoin {
		if r.join == nil {
			return m, domain.Outcome{}, domain.Errorf(domain.EINVALID, "teamId is required")
		}
		return Join(m, a.Actor, *r.join, env)
	}
	return r.Rules.Apply(m, a, env)
}

func (p PlatformGame) rules(join *Team, first *Phase) domain.Rules[Match] {
	var r domain.Rules[Match] = rules{join: join, first: first}
	if p.Wrap != nil {
		r = p.Wrap(r)
	}
	return lister{r}
}

// lister keeps the rules' Legal (and Say) through a Wrap.
type lister struct{ domain.Rules[Match] }

func (l lister) Legal(m Match, actor domain.Actor) []domain.Move { return Rules{}.Legal(m, actor) }

// Say keeps the rules' words (domain.Sayer) through a Wrap too.
func (l lister) Say(m Match, e domain.Event) string { return Rules{}.Say(m, e) }

func (p PlatformGame) single(join *Team, first *Phase) domain.Game {
	return domain.Single(domain.SingleGame[Match]{Rules: p.rules(join, first), Create: p.newMatch})
}

// newMatch is Single's create: the coach's team, read in the same
// transaction, enters as home.
func (p PlatformGame) newMatch(d domain.Docs, a domain.Action, env domain.Env) (Match, bool, error) {
	var req CreateRequest
	if err := domain.DecodePayload(a.Payload, &req); err != nil {
		return Match{}, false, err
	}
	t, err := readTeam(d, req.TeamID)
	if err != nil {
		return Match{}, false, err
	}
	m, err := NewMatch(a.GameID, a.Actor, t, Options{TurnSeconds: req.TurnSeconds, TurnsPerHalf: req.TurnsPerHalf,
		Armor: req.Armor, Private: req.Private}, env.Now)
	return m, true, err
}

// create makes the match and locks the home team.
func (p PlatformGame) create(d domain.Docs, a domain.Action, env domain.Env) (domain.Change, error) {
	ch, err := p.single(nil, nil).Run(d, a, env)
	if err != nil {
		return domain.Change{}, err
	}
	w, ok := ch.GameWrite()
	if !ok {
		return domain.Change{}, domain.Errorf(domain.EINTERNAL, "create wrote no match")
	}
	m := w.Value.(Match)
	t, err := readTeam(d, m.Home.TeamID)
	if err != nil {
		return domain.Change{}, err
	}
	if t, err = LockTeam(t, m.ID); err != nil {
		return domain.Change{}, err
	}
	ch.Writes = append(ch.Writes, domain.Write{DocID: teamDoc(t.ID), Value: t})
	return ch, nil
}

// readTeam decodes a team document that was read.
//
// Errors: ENOTFOUND, EINTERNAL.
func readTeam(d domain.Docs, id string) (Team, error) {
	var t Team
	ok, err := d.Get(teamDoc(id), &t)
	if err != nil {
		return t, err
	}
	if !ok {
		return t, domain.Errorf(domain.ENOTFOUND, "no team %s", domain.Quote(id))
	}
	return t, nil
}

// teamWrites adds to ch what its steps do to the teams (before is the
// match's phase as read): the joiner's team is locked; the step that ends
// the match removes the match's dead from their teams (Match.Dead) and
// unlocks both, one write per team. The team documents are asked for
// (NeedDocs) when not read yet; they are read with a lock, so a team never
// changes under a match that writes it.
//
// A death waits for the match's end, not the action that kills: a locked
// team cannot be edited, restarted or entered in another match, and the
// match's own state shows the player dead from that action on, so nobody
// can tell the difference; and the deadly action then writes only the
// match, so its retry record rides in the game document like any move's
// (issue 22: a team read and written, and an action record, per death —
// about 0.05 documents an action over a whole match — saved). A team dead
// players were removed from during a match (a release before this one)
// loses nothing twice: RemoveDead is idempotent.
//
// Errors: *NeedDocs, EINTERNAL.
func teamWrites(d domain.Docs, ch *domain.Change, before Phase, join *Team) error {
	w, ok := ch.GameWrite()
	if !ok {
		return nil
	}
	after, ok := w.Value.(Match)
	if !ok {
		return domain.Errorf(domain.EINTERNAL, "the match wrote a %T", w.Value)
	}
	dead := map[string][]string{} // team id → players killed
	var order []string
	touch := func(id string) {
		if _, ok := dead[id]; !ok && id != "" {
			dead[id] = nil
			order = append(order, id)
		}
	}
	if join != nil {
		touch(join.ID)
	}
	ended := after.Phase == PhaseOver && before != PhaseOver
	if ended {
		for _, side := range []Side{Home, Away} {
			if id := after.side(side).TeamID; id != "" {
				touch(id)
				dead[id] = append(dead[id], after.Dead(side)...)
			}
		}
	}
	var need []domain.Read
	for _, id := range order {
		if !d.Asked(teamDoc(id)) {
			need = append(need, domain.Locked(teamDoc(id)))
		}
	}
	if len(need) > 0 {
		return domain.Need(need...)
	}
	for _, id := range order {
		var t Team
		found, err := d.Get(teamDoc(id), &t)
		if err != nil {
			return err
		}
		if !found {
			continue // a team removed meanwhile: nothing to keep
		}
		changed := false
		if join != nil && id == join.ID && after.Phase != PhaseWaiting {
			if t, err = LockTeam(t, after.ID); err != nil {
				return err
			}
			changed = true
		}
		if ids := dead[id]; len(ids) > 0 {
			var c bool
			t, c = RemoveDead(t, ids)
			changed = changed || c
		}
		if ended {
			var c bool
			t, c = UnlockTeam(t, after.ID)
			changed = changed || c
		}
		if changed {
			ch.Writes = append(ch.Writes, domain.Write{DocID: teamDoc(id), Value: t})
		}
	}
	return nil
}

// createTeam makes the caller's team under TeamKey(caller, actionId); a
// retry returns the team it made.
func createTeam(d domain.Docs, a domain.Action) (domain.Change, error) {
	var spec TeamSpec
	if err := domain.DecodePayload(a.Payload, &spec); err != nil {
		return domain.Change{}, err
	}
	id := TeamKey(a.Actor.ID, a.ID)
	t, err := NewTeam(id, a.Actor.ID, spec)
	if err != nil {
		return domain.Change{}, err
	}
	var old Team
	found, err := d.Get(teamDoc(id), &old)
	if err != nil {
		return domain.Change{}, err
	}
	if found {
		if !sameTeam(old, t) {
			return domain.Change{}, domain.Errorf(domain.EEXISTS, "actionId %s already created team %s from another request: use a new actionId", domain.Quote(a.ID), id)
		}
		return domain.Change{Result: old}, nil
	}
	return domain.Change{Writes: []domain.Write{{DocID: teamDoc(id), Value: t, Create: true}}, Result: t}, nil
}

// sameTeam reports whether stored team old is what the create request that
// makes fresh made (a retry): same coach, names, images and stats.
func sameTeam(old, fresh Team) bool {
	if old.Coach != fresh.Coach || old.Name != fresh.Name || old.Image != fresh.Image || old.Restarts != 0 {
		return false
	}
	for i, p := range fresh.Players {
		o := old.Players[i]
		if o.ID != p.ID || o.Name != p.Name || o.Image != p.Image || o.ST != p.ST || o.AG != p.AG || o.MV != p.MV || o.AR != p.AR {
			return false
		}
	}
	return true
}

func editTeam(d domain.Docs, a domain.Action) (domain.Change, error) {
	var req EditTeamRequest
	if err := domain.DecodePayload(a.Payload, &req); err != nil {
		return domain.Change{}, err
	}
	t, err := readTeam(d, req.TeamID)
	if err != nil {
		return domain.Change{}, err
	}
	t, err = EditTeam(t, a.Actor.ID, req.TeamSpec)
	if err != nil {
		return domain.Change{}, err
	}
	return domain.Change{Writes: []domain.Write{{DocID: teamDoc(t.ID), Value: t}}, Result: t}, nil
}

func restartTeam(d domain.Docs, a domain.Action) (domain.Change, error) {
	var req RestartTeamRequest
	if err := domain.DecodePayload(a.Payload, &req); err != nil {
		return domain.Change{}, err
	}
	t, err := readTeam(d, req.TeamID)
	if err != nil {
		return domain.Change{}, err
	}
	t, err = RestartTeam(t, a.Actor.ID, req.Players)
	if err != nil {
		return domain.Change{}, err
	}
	return domain.Change{Writes: []domain.Write{{DocID: teamDoc(t.ID), Value: t}}, Result: t}, nil
}

// cleanChat checks a chat message: 1 to ChatMaxRunes printable characters
// (spaces included, no line breaks or control characters), trimmed.
//
// Errors: EINVALID naming "text".
func cleanChat(s string) (string, error) {
	if !utf8.ValidString(s) {
		return "", domain.Errorf(domain.EINVALID, "text must be valid UTF-8")
	}
	s = strings.TrimSpace(s)
	if s == "" {
		return "", domain.Errorf(domain.EINVALID, "text is required: 1 to %d characters", ChatMaxRunes)
	}
	if n := utf8.RuneCountInString(s); n > ChatMaxRunes {
		return "", domain.Errorf(domain.EINVALID, "text must be at most %d characters, not %d", ChatMaxRunes, n)
	}
	for _, r := range s {
		if !unicode.IsPrint(r) {
			return "", domain.Errorf(domain.EINVALID, "text may hold printable characters only (no line breaks)")
		}
	}
	return s, nil
}

// ChatKey is the key of a chat message sent at now by coach with action
// actionID: the time first (zero-padded nanoseconds), so keys sort in
// sending order, then a hash that keeps two messages of the same instant
// apart.
func ChatKey(now time.Time, coach, actionID string) string {
	sum := sha256.Sum256([]byte(coach + "\x00" + actionID))
	return fmt.Sprintf("%019d-%s", now.UnixNano(), hex.EncodeToString(sum[:4]))
}

// chat posts a message of a coach of the match, at most ChatBurst per
// ChatWindow per coach. It leaves the match document alone.
//
// Errors: EINVALID (text), EFORBIDDEN (not a coach of the match), ELIMIT
// (over the rate).
func chat(d domain.Docs, a domain.Action, env domain.Env) (domain.Change, error) {
	var req ChatRequest
	if err := domain.DecodePayload(a.Payload, &req); err != nil {
		return domain.Change{}, err
	}
	text, err := cleanChat(req.Text)
	if err != nil {
		return domain.Change{}, err
	}
	g, err := domain.ReadGame[Match](d, Kind)
	if err != nil {
		return domain.Change{}, err
	}
	side := g.State.SideOf(a.Actor.ID)
	if side == "" {
		return domain.Change{}, domain.Errorf(domain.EFORBIDDEN, "only the match's coaches chat; spectators read")
	}
	var lim ChatLimit
	if _, err := d.Get(domain.Doc(SlotChatLimit, a.Actor.ID), &lim); err != nil {
		return domain.Change{}, err
	}
	now := env.Now.UTC()
	var recent []time.Time
	for _, t := range lim.Sent {
		if now.Sub(t) < ChatWindow {
			recent = append(recent, t)
		}
	}
	if len(recent) >= ChatBurst {
		wait := recent[0].Add(ChatWindow).Sub(now)
		return domain.Change{}, domain.Errorf(domain.ELIMIT, "at most %d messages per %s: wait %s", ChatBurst, ChatWindow, wait.Round(time.Millisecond))
	}
	recent = append(recent, now)
	key := ChatKey(now, a.Actor.ID, a.ID)
	msg := ChatMessage{From: a.Actor.ID, FromName: a.Actor.Name, Side: side, Text: text, At: now}
	return domain.Change{
		Writes: []domain.Write{
			{DocID: domain.Doc(SlotChat, key), Value: msg, Create: true},
			{DocID: domain.Doc(SlotChatLimit, a.Actor.ID), Value: ChatLimit{Sent: recent}},
		},
		Result: map[string]any{"key": key},
	}, nil
}
