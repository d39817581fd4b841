package codebowl

import (
	"time"

	"github.com/meeple-games/meeple/domain"
)

// Side is one of the two coaches of a match. Home created it and plays the
// left half (columns 0…9) all match; away joined and plays the right half.
type Side string

const (
	Home Side = "home"
	Away Side = "away"
)

// Other returns the other side.
func (s Side) Other() Side {
	if s == Home {
		return Away
	}
	return Home
}

// Phase is where a match is: waiting → setup ⇄ play → over.
type Phase string

const (
	PhaseWaiting Phase = "waiting" // the home coach waits for an opponent
	PhaseSetup   Phase = "setup"   // a coach places his players (a kick-off)
	PhasePlay    Phase = "play"    // coaches take turns
	PhaseOver    Phase = "over"    // finished (or cancelled)
)

// PlayerState is where a match player is.
type PlayerState string

const (
	StateReserve  PlayerState = "reserve"  // not on the pitch: waiting to be placed
	StateStanding PlayerState = "standing" // on the pitch, on his feet
	StateDown     PlayerState = "down"     // on the pitch, knocked down
	StateDead     PlayerState = "dead"     // injured: out of the match and the team
)

// MatchPlayer is a team's player as he entered the match, and where he is.
type MatchPlayer struct {
	ID    string      `json:"id"`
	Name  string      `json:"name"`
	Image string      `json:"image,omitempty"`
	ST    int         `json:"st"`
	AG    int         `json:"ag"`
	MV    int         `json:"mv"`
	AR    int         `json:"ar"`
	State PlayerState `json:"state"`
	// Pos is his square while standing or down; {-1,-1} in reserve or dead.
	Pos Square `json:"pos"`
	// Acted is true once he took his action this turn (his side's turn).
	Acted bool `json:"acted,omitempty"`
}

// OnPitch reports whether p stands or lies on the pitch.
func (p MatchPlayer) OnPitch() bool { return p.State == StateStanding || p.State == StateDown }

// TeamSide is one coach and his team in a match.
type TeamSide struct {
	Coach     string        `json:"coach"` // account id
	CoachName string        `json:"coachName"`
	TeamID    string        `json:"teamId"`
	TeamName  string        `json:"teamName"`
	TeamImage string        `json:"teamImage,omitempty"`
	Players   []MatchPlayer `json:"players"` // the team's living players when the match began
	Score     int           `json:"score"`
	Turns     int           `json:"turns"` // turns started by this coach, whole match
	// Timeouts counts this coach's turns and placements in a row that timed
	// out; any action of his resets it.
	Timeouts int `json:"timeouts"`
}

// alive returns how many of the side's players are not dead.
func (t TeamSide) alive() int {
	n := 0
	for _, p := range t.Players {
		if p.State != StateDead {
			n++
		}
	}
	return n
}

// Ball states.
const (
	BallNone    = "none"    // not in play: before a kick-off
	BallLoose   = "loose"   // on Pos, which no player occupies
	BallCarried = "carried" // held by Carrier, who stands on Pos
)

// Ball is where the ball is: on a square, held by one player, or out of play.
type Ball struct {
	State   string `json:"state"`
	Pos     Square `json:"pos"`
	Carrier string `json:"carrier,omitempty"` // player id when carried
}

// Summary is a finished match's result in short.
type Summary struct {
	Home SideSummary `json:"home"`
	Away SideSummary `json:"away"`
	// Turns is the number of turns started, both coaches.
	Turns int `json:"turns"`
}

// SideSummary is one side's part of a Summary.
type SideSummary struct {
	Score int `json:"score"`
	Turns int `json:"turns"`
	// Injuries is how many of the side's players died; Dead lists them.
	Injuries int      `json:"injuries"`
	Dead     []string `json:"dead,omitempty"`
}

// Match is the whole public state of a CodeBowl match, stored as the game
// document's state; clients read it directly. It holds no secrets: a placement
// exists only once it is submitted, whole.
type Match struct {
	ID        string    `json:"id"`
	Options   Options   `json:"options"` // resolved: turnSeconds 0 means no timer
	Phase     Phase     `json:"phase"`
	CreatedAt time.Time `json:"createdAt"`

	Home TeamSide `json:"home"`
	Away TeamSide `json:"away,omitzero"` // absent until someone joins

	// FirstOffense won the coin flip (CoinDie 1: home, 2: away) and received
	// in the first half.
	FirstOffense Side `json:"firstOffense,omitempty"`
	CoinDie      int  `json:"coinDie,omitempty"`

	Half int `json:"half"` // 1 or 2; 0 while waiting
	// Drive counts kick-offs: 1 for the first, +1 after each score and at
	// halftime.
	Drive int `json:"drive"`
	// Offense is the side with the ball's initiative: the receiving side at a
	// kick-off, and whoever picks the ball up after that.
	Offense Side `json:"offense,omitempty"`
	// Placing is the coach whose placement is awaited in setup.
	Placing Side `json:"placing,omitempty"`
	// Active is the coach whose turn it is in play.
	Active Side `json:"active,omitempty"`
	// HalfStarter played the first turn of this half; turns alternate from
	// him, so turn k of the half (HalfTurns = k) is his when k is odd.
	HalfStarter Side `json:"halfStarter,omitempty"`
	// HalfTurns counts the turns started this half, both coaches
	// (0…2 × turnsPerHalf); Turn is the active coach's turn number in the
	// half, (HalfTurns + 1) / 2.
	HalfTurns int `json:"halfTurns"`
	Turn      int `json:"turn"`

	Ball Ball `json:"ball"`

	// Deadline is when the current turn or placement times out; absent when
	// there is no timer or nothing to wait for. JoinDeadline is when a waiting
	// match is cancelled.
	Deadline     time.Time `json:"deadline,omitzero"`
	JoinDeadline time.Time `json:"joinDeadline,omitzero"`

	// Log is a short human-readable record of the last LogSize happenings;
	// the events are the full record.
	Log []string `json:"log,omitempty"`

	// Result, set in phase over.
	Winner     string    `json:"winner,omitempty"` // coach id
	Loser      string    `json:"loser,omitempty"`
	WinnerSide Side      `json:"winnerSide,omitempty"`
	Draw       bool      `json:"draw,omitempty"`
	EndReason  string    `json:"endReason,omitempty"`
	EndedAt    time.Time `json:"endedAt,omitzero"`
	Summary    *Summary  `json:"summary,omitempty"`
}

// entrant is the TeamSide of coach with team, as a match starts it.
func entrant(coach domain.Actor, team Team) TeamSide {
	ts := TeamSide{Coach: coach.ID, CoachName: coach.Name, TeamID: team.ID, TeamName: team.Name, TeamImage: team.Image}
	for _, p := range team.Players {
		if p.Dead {
			continue
		}
		ts.Players = append(ts.Players, MatchPlayer{ID: p.ID, Name: p.Name, Image: p.Image,
			ST: p.ST, AG: p.AG, MV: p.MV, AR: p.AR, State: StateReserve, Pos: offPitch})
	}
	return ts
}

// checkEntry checks that coach may bring team into match id.
func checkEntry(matchID string, coach domain.Actor, team Team) error {
	if coach.ID == "" {
		return domain.Errorf(domain.EINVALID, "a coach id is required")
	}
	if team.Coach != coach.ID {
		return domain.Errorf(domain.EFORBIDDEN, "team %s is not yours", team.ID)
	}
	if err := ValidateTeam(team); err != nil {
		return err
	}
	switch {
	case team.Match != "" && team.Match != matchID:
		return domain.Errorf(domain.ECONFLICT, "team %s is already playing match %s", team.ID, team.Match)
	case team.Alive() == 0:
		return domain.Errorf(domain.ECONFLICT, "every player of team %s is dead: restart the team first", team.ID)
	}
	return nil
}

// NewMatch creates match id with coach's team on the home side, waiting for
// an opponent until now + JoinWindow. The platform locks the team
// (LockTeam) in the same transaction.
//
// Errors: EINVALID (empty id, bad options, invalid team), EFORBIDDEN (the
// team is not coach's), ECONFLICT (the team plays another match, or has no
// living player).
func NewMatch(id string, coach domain.Actor, team Team, opts Options, now time.Time) (Match, error) {
	if id == "" {
		return Match{}, domain.Errorf(domain.EINVALID, "match id is required")
	}
	o, err := opts.resolve()
	if err != nil {
		return Match{}, err
	}
	if err := checkEntry(id, coach, team); err != nil {
		return Match{}, err
	}
	now = now.UTC()
	return Match{
		ID: id, Options: o, Phase: PhaseWaiting, CreatedAt: now,
		Home:         entrant(coach, team),
		Ball:         Ball{State: BallNone, Pos: offPitch},
		JoinDeadline: now.Add(JoinWindow),
	}, nil
}

// Join seats coach with team as the away side of a waiting match, flips the
// coin for the first offense (a d2: 1 home, 2 away) and starts the first
// setup: the defense places first. It is the platform's join (it reads the
// team document, which an action's payload cannot be trusted to carry); it
// has Apply's contract: pure, m unchanged on error. The platform locks the
// team (LockTeam) in the same transaction.
//
// Errors: ECONFLICT (the match is not waiting, coach is already in it, the
// team plays another match or has no living player), EFORBIDDEN (the team is
// not coach's), EINVALID (invalid team, a player id the home team uses too).
func Join(m Match, coach domain.Actor, team Team, env domain.Env) (Match, domain.Outcome, error) {
	switch {
	case m.Phase == PhaseOver:
		return m, domain.Outcome{}, domain.Errorf(domain.ECONFLICT, "the match is over")
	case m.Phase != PhaseWaiting:
		return m, domain.Outcome{}, domain.Errorf(domain.ECONFLICT, "the match is full")
	case coach.ID != "" && coach.ID == m.Home.Coach:
		return m, domain.Outcome{}, domain.Errorf(domain.ECONFLICT, "you are already in this match")
	}
	if err := checkEntry(m.ID, coach, team); err != nil {
		return m, domain.Outcome{}, err
	}
	for _, p := range team.Players {
		if _, _, ok := m.find(p.ID); ok {
			return m, domain.Outcome{}, domain.Errorf(domain.EINVALID, "player id %s is in both teams", p.ID)
		}
	}
	s := newStep(m, env.Now, env.Dice, coach.ID)
	s.m.Away = entrant(coach, team)
	s.m.JoinDeadline = time.Time{}
	s.emit(EventJoined, JoinedData{Side: Away, Coach: coach.ID, CoachName: coach.Name, TeamID: team.ID, TeamName: team.Name})
	die := s.dice.Roll(2)
	first := Home
	if die == 2 {
		first = Away
	}
	s.m.CoinDie, s.m.FirstOffense = die, first
	s.emit(EventCoinFlipped, CoinFlippedData{Die: die, Offense: first})
	s.logf("%s wins the coin flip and receives", s.teamName(first))
	s.m.Half = 1
	s.m.HalfStarter = first
	s.newDrive(first)
	s.result = JoinResult{Side: Away, FirstOffense: first}
	return s.m, s.outcome(), nil
}

// clone returns a copy of m that shares nothing mutable with it.
func (m Match) clone() Match {
	m.Home.Players = append([]MatchPlayer(nil), m.Home.Players...)
	if m.Away.Players != nil {
		m.Away.Players = append([]MatchPlayer(nil), m.Away.Players...)
	}
	if m.Log != nil {
		m.Log = append([]string(nil), m.Log...)
	}
	if m.Summary != nil {
		s := *m.Summary
		s.Home.Dead = append([]string(nil), s.Home.Dead...)
		s.Away.Dead = append([]string(nil), s.Away.Dead...)
		m.Summary = &s
	}
	return m
}

// side returns side s of m.
func (m *Match) side(s Side) *TeamSide {
	if s == Home {
		return &m.Home
	}
	return &m.Away
}

// ref names a player of a match: his side and his index in its Players.
type ref struct {
	side Side
	i    int
}

func (m *Match) p(r ref) *MatchPlayer { return &m.side(r.side).Players[r.i] }

// find returns the side and index of player id.
func (m *Match) find(id string) (Side, int, bool) {
	for _, s := range []Side{Home, Away} {
		for i, p := range m.side(s).Players {
			if p.ID == id {
				return s, i, true
			}
		}
	}
	return "", 0, false
}

// at returns the player on square q.
func (m *Match) at(q Square) (ref, bool) {
	for _, s := range []Side{Home, Away} {
		for i, p := range m.side(s).Players {
			if p.Pos == q && p.OnPitch() {
				return ref{s, i}, true
			}
		}
	}
	return ref{}, false
}

// SideOf returns the side of coach id, "" when he is not seated.
func (m Match) SideOf(id string) Side {
	switch {
	case id == "":
		return ""
	case m.Home.Coach == id:
		return Home
	case m.Away.Coach == id:
		return Away
	}
	return ""
}

// Cancelled reports whether the match ended with no result.
func (m Match) Cancelled() bool { return m.Phase == PhaseOver && m.EndReason == ReasonCancelled }

// Dead returns the ids of side's players who died in this match: what the
// platform removes from that coach's team (RemoveDead) if it did not already
// do so event by event.
func (m Match) Dead(side Side) []string {
	var out []string
	for _, p := range m.side(side).Players {
		if p.State == StateDead {
			out = append(out, p.ID)
		}
	}
	return out
}
