package tilerace

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"

	"github.com/meeple-games/meeple/domain"
)

// Slots of a race's documents besides the game document (docs/firestore.md).
// Teams never write a document another team's completion reads: a completion
// reads the game, its team and the private board, and writes its team.
const (
	SlotTeam        = "team"        // games/{id}/teams/{teamId}: Team (public)
	SlotPowerupTile = "powerupTile" // games/{id}/powerupTiles/{ptId}: PowerupTile (public)
	SlotPublicBoard = "publicBoard" // games/{id}/public/board: PublicBoard (public)
	SlotLeaderboard = "leaderboard" // games/{id}/public/leaderboard: RaceLeaderboard (public)
	SlotBoard       = "board"       // games/{id}/private/board: BoardDoc (admins, fog off for them)
	SlotPools       = "pools"       // games/{id}/private/pools: PoolsDoc (admins)
	SlotCred        = "cred"        // games/{id}/private/cred-{team|admin}-{id}: domain.Credential (never)
)

// BoardDoc is the private board document: every tile's content, and a
// version that numbers the randomisers' dice.
type BoardDoc struct {
	Board   Board `json:"board"`
	Version int64 `json:"version"`
	// Fog is the game's fog mode, mirrored here so firestore.rules can let
	// admins read the board while it is off for them without reading the
	// game document (a rule's get() that denies reports an evaluation
	// error in the emulator; this one denies cleanly).
	Fog FogMode `json:"fog"`
}

// PoolsDoc is the private pools document.
type PoolsDoc struct {
	Pools Pools `json:"pools"`
}

// PublicBoard is games/{id}/public/board: every tile as players may see it (a
// hidden tile carries its place and nothing else), the fog mode and the fog
// frontier (tiles 1..RevealedUpTo are revealed).
type PublicBoard struct {
	Tiles        []PublicTile `json:"tiles"`
	Fog          FogMode      `json:"fog"`
	RevealedUpTo int          `json:"revealedUpTo"`
}

// RaceLeaderboard is games/{id}/public/leaderboard: every player's points
// (hundredths, by name; a player on several teams has one total) and the top
// 10 with two decimals. The tick's projection builds it from the teams'
// points (Team.Points; LeaderboardProjection), once per projection pass at
// most.
type RaceLeaderboard struct {
	Totals map[string]int `json:"totals"`
	Top    []Standing     `json:"top"`
	Awards int            `json:"awards"` // awards counted: every team's awards
	// Reversed counts the awards undo took back: every team's reversed.
	Reversed int `json:"reversed,omitempty"`
}

// LedgerEntry is one entry of a race's points ledger: one completion's or
// claim's points for one player, or (Reverses set, negative points) an undo
// taking them back. The entries are the pointsAwarded and pointsReversed
// events of the race's event records (LedgerOf), written in the commit that
// changes the team's points: one document fewer per award than a ledger
// collection of its own (issue 22).
type LedgerEntry struct {
	Key         string `json:"key"`
	Player      string `json:"player"`
	Points      int    `json:"points"`  // hundredths
	Display     string `json:"display"` // two decimals
	Team        string `json:"team"`
	TeamName    string `json:"teamName"`
	Event       string `json:"event"` // the event record that holds it
	Tile        int    `json:"tile,omitempty"`
	PowerupTile string `json:"powerupTile,omitempty"`
	By          string `json:"by,omitempty"`
	// Reverses is the key of the award a compensating entry (negative
	// points, in an undo's record) takes back.
	Reverses string `json:"reverses,omitempty"`
}

// Credential kinds: the key of a cred document is "{kind}-{id}".
const (
	CredTeam  = "team"
	CredAdmin = "admin"
)

// CredDoc names the credential document of a team or an admin.
func CredDoc(kind, id string) domain.DocID { return domain.Doc(SlotCred, kind+"-"+id) }

// MasterAdminID is the admin id of the admin who creates a race.
const MasterAdminID = "master"

// actionAutoFog is the system step that turns the fog off after a randomiser
// could not meet its constraints (ruling 17).
const actionAutoFog = "autoDisableFog"

// RaceGame is Tile Race as the platform drives it.
type RaceGame struct {
	// DiscordBase returns a base URL whose webhooks setDiscord accepts
	// besides Discord's (CheckWebhookURL): the fake Discord of the local
	// stack and tests. nil, or "", accepts Discord's only.
	DiscordBase func() string
}

func (g RaceGame) webhookBase() string {
	if g.DiscordBase == nil {
		return ""
	}
	return g.DiscordBase()
}

var _ domain.Game = RaceGame{}

// Kind implements domain.Game.
func (RaceGame) Kind() string { return Kind }

// KeepsSeed implements domain.SeedKeeper: a finished race does not publish
// its seed. The randomisers and Change Tile drew private content with it, and
// an undone win makes the race active again.
func (RaceGame) KeepsSeed() bool { return true }

// Slots implements domain.Game.
func (RaceGame) Slots() []domain.Slot {
	return []domain.Slot{
		{Name: SlotTeam, Path: "teams/{key}", Type: Team{}, Access: domain.ReadPublic, Doc: "one team: position, progress, inventory, cooldown, points"},
		{Name: SlotPowerupTile, Path: "powerupTiles/{key}", Type: PowerupTile{}, Access: domain.ReadPublic, Doc: "one powerup tile and its claims"},
		{Name: SlotPublicBoard, Path: "public/board", Type: PublicBoard{}, Access: domain.ReadPublic, Packed: []string{"tiles"}, Doc: "the 56 tiles through the fog (tiles: JSON text), the fog mode and frontier"},
		{Name: SlotLeaderboard, Path: "public/leaderboard", Type: RaceLeaderboard{}, Access: domain.ReadPublic, Doc: "points per player and the top 10"},
		{Name: SlotBoard, Path: "private/board", Type: BoardDoc{}, Access: domain.ReadAdmin, Packed: []string{"board"}, Doc: "every tile's content (board: JSON text; the game's admins, while the fog is off for them)"},
		{Name: SlotPools, Path: "private/pools", Type: PoolsDoc{}, Access: domain.ReadAdmin, Packed: []string{"pools"}, Doc: "the task pools (pools: JSON text)"},
		{Name: SlotCred, Path: "private/cred-{key}", Type: domain.Credential{}, Access: domain.ReadNever, Doc: "a team's or an admin's password hash"},
		{Name: SlotHistory, Path: "history/{key}", Type: HistoryEntry{}, Access: domain.ReadNever, Records: true, Doc: "one state-changing action as undo needs it: before-images, after-hashes, awards; and the action's idempotency record (the platform's act)"},
		{Name: SlotHistoryPart, Path: "historyParts/{key}", Type: HistoryPart{}, Access: domain.ReadNever, Doc: "a slice of a history entry's before-images too large to keep in it"},
		{Name: SlotDiscord, Path: "private/discord", Type: DiscordDoc{}, Access: domain.ReadNever, Doc: "the Discord webhook URLs (secrets)"},
		{Name: SlotDiscordStatus, Path: "private/discordStatus", Type: DiscordStatus{}, Access: domain.ReadAdmin, Doc: "Discord delivery status per destination (no URLs)"},
		{Name: domain.SlotOutbox, Path: domain.OutboxPath, Type: domain.Message{}, Access: domain.ReadNever, Doc: "Discord announcements to deliver, with their delivery state"},
	}
}

// PasswordMin implements domain.Passworder: admins guard a whole event (8
// bytes); team passwords are shared by a team and typed on phones (4).
func (RaceGame) PasswordMin(action string) int {
	switch action {
	case domain.ActionCreate, ActionAddAdmin:
		return 8
	case ActionCreateTeam, ActionUpdateTeam:
		return 4
	}
	return 0
}

// Admit implements domain.Admitter: a race is created by a player or guest
// (who becomes its master admin); everything else takes a team or admin
// token of this very race.
//
// Errors: EFORBIDDEN.
func (RaceGame) Admit(a domain.Actor, gameID, action string) error {
	if action == domain.ActionCreate {
		return domain.DefaultAdmit(a, gameID, action)
	}
	switch a.Role {
	case RoleTeam, RoleAdmin, RoleMaster:
	default:
		return domain.Errorf(domain.EFORBIDDEN, "only a team or an admin of this race can do that; sign in with teamLogin or adminLogin")
	}
	if a.Game != gameID {
		return domain.Errorf(domain.EFORBIDDEN, "your session is for another game")
	}
	return nil
}

// raceCreate is the payload of a race's create.
type raceCreate struct {
	Name string `json:"name" field:"text,max=40"` // the master admin's name
}

// Plan implements domain.Game: what each action's Spec reads, the team and
// powerup tile its request names; admin actions also read the fog frontier
// (teams' never do, so a completion reads nothing another team writes).
//
// The game document is read as a snapshot by every action: every team reads
// it, so a locked read would make an admin's write (or the winning
// completion's) wait behind all of them. A write back of it is conditional
// on it being unchanged, and a loser runs again — so the first completion of
// the final tile to commit wins and the others then find the race over.
func (RaceGame) Plan(a domain.Action) (domain.Plan, error) {
	game := domain.Read{DocID: domain.GameDocID, Snapshot: true}
	switch a.Type {
	case domain.ActionCreate:
		return domain.Plan{Scope: domain.ScopeCreate, Reads: []domain.Read{game}}, nil
	case domain.ActionAdvance:
		return domain.Plan{Reads: []domain.Read{game}}, nil
	case actionAutoFog:
		return domain.Plan{Reads: []domain.Read{game, domain.Locked(domain.Doc(SlotBoard, "")), domain.Locked(domain.Doc(SlotPublicBoard, ""))}}, nil
	case domain.ActionLegal:
		reads := []domain.Read{game}
		if a.Actor.Role == RoleTeam {
			reads = append(reads, domain.Locked(domain.Doc(SlotTeam, a.Actor.Local())), domain.Locked(domain.Doc(SlotBoard, "")),
				domain.Read{DocID: domain.Doc(SlotPowerupTile, ""), All: true})
		}
		return domain.Plan{Reads: reads}, nil
	}
	req, err := DecodeRequest(a.Type, a.Payload)
	if err != nil {
		return domain.Plan{}, err
	}
	spec := Specs[a.Type]
	keys := KeysOf(a.Actor, req)
	if r, ok := req.(*PowerupRequest); ok {
		return planPowerup(a, r, keys)
	}
	lock := readFor(a.Type)
	reads := []domain.Read{game}
	for _, d := range spec.Reads {
		switch d {
		case DocTeam:
			if keys.Team == "" {
				if a.Actor.Role != RoleTeam && spec.Who == WhoTeam {
					return domain.Plan{}, domain.Errorf(domain.EINVALID, "team is required: an admin acting for a team must name it")
				}
				return domain.Plan{}, domain.Errorf(domain.EINVALID, "team is required")
			}
			reads = append(reads, lock(domain.Doc(SlotTeam, keys.Team)))
		case DocTeams:
			reads = append(reads, domain.Read{DocID: domain.Doc(SlotTeam, ""), All: true})
		case DocTile, DocBoard:
			if a.Type == ActionComplete {
				// The team's tile is revealed: its content is on the
				// public board, read below. The private board (9.8 KB in
				// 770 fields on a full race) is read only when the
				// completion lifts the fog or the tile is not public
				// (tileOfCompletion).
				continue
			}
			reads = append(reads, lock(domain.Doc(SlotBoard, "")))
		case DocPools:
			reads = append(reads, lock(domain.Doc(SlotPools, "")))
		case DocDiscord:
			reads = append(reads, lock(domain.Doc(SlotDiscord, "")), lock(domain.Doc(SlotDiscordStatus, "")))
		case DocPowerupTile:
			if keys.PowerupTile == "" {
				return domain.Plan{}, domain.Errorf(domain.EINVALID, "powerupTile is required")
			}
			reads = append(reads, lock(domain.Doc(SlotPowerupTile, keys.PowerupTile)))
		case DocPowerupTiles:
			reads = append(reads, domain.Read{DocID: domain.Doc(SlotPowerupTile, ""), All: true})
		case DocHistory:
			reads = append(reads, domain.Read{DocID: domain.Doc(SlotHistory, ""), All: true, Newest: HistoryDepth, Order: historyOrder})
		}
	}
	if spec.Who != WhoTeam || a.Type == ActionComplete {
		// A completion raises the fog frontier kept there (raiseAfter).
		reads = append(reads, lock(domain.Doc(SlotPublicBoard, "")))
	}
	// An undo's reply is its "undone" event (UndoResult: the actions, the
	// teams, the count of pointsReversed events) and its payload names a
	// record every reader of the events already sees: its action record
	// rides in its event record.
	undo := a.Type == ActionUndo || a.Type == ActionUndoTo
	return domain.Plan{Reads: reads, RecordInEvent: undo}, nil
}

// planPowerup is the plan of a usePowerup: only what its powerup needs
// (PowerupReads), so the powerups a team uses on itself (skips, Clear
// Cooldown, Double Powerup) read nothing of another team.
//
// Every read is a snapshot, and everything the use decided from is written
// back on the condition that it did not change since the read (the platform
// puts an update-time precondition on every write of a snapshot): the team,
// the target, the board, the pools, the public board (with the frontier),
// and — for tile modifications, which decide "no team on the tile" from every
// team's position — every team on the roster, unchanged ones included (Run
// asks for them once it has the roster). If any of them changed, the use
// runs again on fresh documents, so concurrent actions end as one serial
// order would. Holding no lock, a use never makes another team's completion
// wait, and two actions never deadlock on a lock upgrade (two transactions
// that both read-lock a document and then both write it, which the
// emulator only resolves by timing one out).
//
// Only a back that finds its target on tile 1 (nothing moves) and labels of
// tiles in events are decided from values not written back; both are what
// some serial order gives.
func planPowerup(a domain.Action, r *PowerupRequest, keys Keys) (domain.Plan, error) {
	if keys.Team == "" {
		if a.Actor.Role != RoleTeam {
			return domain.Plan{}, domain.Errorf(domain.EINVALID, "team is required: an admin acting for a team must name it")
		}
		return domain.Plan{}, domain.Errorf(domain.EINVALID, "team is required")
	}
	id, ok := PowerupByID(r.Powerup)
	if !ok {
		if r.Powerup == "" {
			return domain.Plan{}, domain.Errorf(domain.EINVALID, "powerup is required")
		}
		return domain.Plan{}, domain.Errorf(domain.EINVALID, "unknown powerup %q", r.Powerup)
	}
	snap := func(id domain.DocID) domain.Read { return domain.Read{DocID: id, Snapshot: true} }
	reads := []domain.Read{snap(domain.GameDocID)}
	for _, d := range PowerupReads(id) {
		switch d {
		case DocTeam:
			reads = append(reads, snap(domain.Doc(SlotTeam, keys.Team)))
		case DocTarget:
			if keys.Target == "" {
				return domain.Plan{}, domain.Errorf(domain.EINVALID, "target is required for %s: the team to target", PowerupName(id))
			}
			if !validID(keys.Target) {
				return domain.Plan{}, domain.Errorf(domain.EINVALID, "target must be a team id, not %q", keys.Target)
			}
			reads = append(reads, snap(domain.Doc(SlotTeam, keys.Target)))
		case DocTeams:
			// Run asks for every team on the roster once it has the game.
		case DocBoard:
			reads = append(reads, snap(domain.Doc(SlotBoard, "")))
		case DocPools:
			reads = append(reads, snap(domain.Doc(SlotPools, "")))
		}
	}
	if ReadsFrontier(id) {
		reads = append(reads, domain.Read{DocID: domain.Doc(SlotPublicBoard, ""), Snapshot: true})
	}
	return domain.Plan{Reads: reads}, nil
}

// readsOf is what action typ with request req reads.
func readsOf(typ string, req any) []Doc {
	if r, ok := req.(*PowerupRequest); ok {
		if id, ok := PowerupByID(r.Powerup); ok {
			return PowerupReads(id)
		}
		return []Doc{DocGame, DocTeam}
	}
	return Specs[typ].Reads
}

// Run implements domain.Game. Every state-changing action except undo
// also leaves its history entry (history.go), whatever the action.
func (g RaceGame) Run(d domain.Docs, a domain.Action, env domain.Env) (domain.Change, error) {
	ch, err := g.run(d, a, env)
	if err != nil || len(ch.Steps) == 0 || !keepsHistory(a.Type) {
		return ch, err
	}
	return withHistory(d, a, env, ch)
}

func (g RaceGame) run(d domain.Docs, a domain.Action, env domain.Env) (domain.Change, error) {
	switch a.Type {
	case domain.ActionCreate:
		return g.create(d, a, env)
	case domain.ActionAdvance:
		return domain.Change{}, nil // a race has no deadlines
	case actionAutoFog:
		return g.autoFog(d, a, env)
	case domain.ActionLegal:
		return legal(d, a, env)
	}
	req, err := DecodeRequest(a.Type, a.Payload)
	if err != nil {
		return domain.Change{}, err
	}
	doc, err := domain.ReadGame[Game](d, Kind)
	if err != nil {
		return domain.Change{}, err
	}
	keys := KeysOf(a.Actor, req)
	if err := Authorize(doc.State, a.Actor, a.Type, keys.Team); err != nil {
		return domain.Change{}, err
	}
	v := Values{Game: doc.State}
	var pb publicHead
	if ok, err := d.GetWith(domain.Doc(SlotPublicBoard, ""), pb.read); err != nil {
		return domain.Change{}, err
	} else if ok {
		v.Game.RevealedUpTo = pb.RevealedUpTo
	}
	if u, ok := req.(*UndoRequest); ok {
		return g.undo(d, a, env, doc, *u, pb.RevealedUpTo)
	}
	var bd BoardDoc
	reads := func(x Doc) bool {
		for _, r := range readsOf(a.Type, req) {
			if r == x {
				return true
			}
		}
		return false
	}
	if reads(DocTeam) {
		if ok, err := d.Get(domain.Doc(SlotTeam, keys.Team), &v.Team); err != nil {
			return domain.Change{}, err
		} else if !ok {
			return domain.Change{}, domain.Errorf(domain.ENOTFOUND, "no team %q in this game", keys.Team)
		}
		if a.Actor.Role == RoleTeam && a.Actor.Gen != v.Team.Gen {
			return domain.Change{}, domain.Errorf(domain.EUNAUTHORIZED, "this team session has ended (the password changed); sign in again")
		}
	}
	if reads(DocTarget) && keys.Target != "" {
		if ok, err := d.Get(domain.Doc(SlotTeam, keys.Target), &v.Target); err != nil {
			return domain.Change{}, err
		} else if !ok {
			if _, listed := v.Game.TeamRef(keys.Target); !listed {
				return domain.Change{}, domain.Errorf(domain.ENOTFOUND, "there is no team %q", keys.Target)
			}
			return domain.Change{}, domain.Errorf(domain.ENOTFOUND, "no team %q in this game", keys.Target)
		}
	}
	if reads(DocPowerupTile) {
		if ok, err := d.Get(domain.Doc(SlotPowerupTile, keys.PowerupTile), &v.PowerupTile); err != nil {
			return domain.Change{}, err
		} else if !ok {
			return domain.Change{}, domain.Errorf(domain.ENOTFOUND, "no powerup tile %q in this game", keys.PowerupTile)
		}
	}
	boardRead := d.Has(domain.Doc(SlotBoard, ""))
	if boardRead {
		if _, err := d.Get(domain.Doc(SlotBoard, ""), &bd); err != nil {
			return domain.Change{}, err
		}
		v.Board = bd.Board
	} else if a.Type == ActionComplete {
		t, ok := tileOfCompletion(pb, v.Team.Position)
		if !ok {
			return domain.Change{}, domain.Need(readFor(a.Type)(domain.Doc(SlotBoard, "")))
		}
		v.Tile = &t
	}
	if reads(DocPools) {
		var pd PoolsDoc
		if _, err := d.Get(domain.Doc(SlotPools, ""), &pd); err != nil {
			return domain.Change{}, err
		}
		v.Pools = pd.Pools
	}
	if reads(DocDiscord) {
		if _, err := d.Get(domain.Doc(SlotDiscord, ""), &v.Discord); err != nil {
			return domain.Change{}, err
		}
		if _, err := d.Get(domain.Doc(SlotDiscordStatus, ""), &v.DiscordStatus); err != nil {
			return domain.Change{}, err
		}
	}
	_, powerup := req.(*PowerupRequest)
	if reads(DocTeams) && powerup {
		// Every team on the roster, as snapshots (see planPowerup).
		var need []domain.Read
		for _, ref := range v.Game.Teams {
			if id := domain.Doc(SlotTeam, ref.ID); !d.Asked(id) {
				need = append(need, domain.Read{DocID: id, Snapshot: true})
			}
		}
		if len(need) > 0 {
			return domain.Change{}, domain.Need(need...)
		}
		for _, ref := range v.Game.Teams {
			var t Team
			if ok, err := d.Get(domain.Doc(SlotTeam, ref.ID), &t); err != nil {
				return domain.Change{}, err
			} else if ok {
				v.Teams = append(v.Teams, t)
			}
		}
	} else if reads(DocTeams) {
		for _, k := range d.Keys(SlotTeam) {
			var t Team
			if _, err := d.Get(domain.Doc(SlotTeam, k), &t); err != nil {
				return domain.Change{}, err
			}
			v.Teams = append(v.Teams, t)
		}
	}
	if reads(DocPowerupTiles) {
		for _, k := range d.Keys(SlotPowerupTile) {
			var pt PowerupTile
			if _, err := d.Get(domain.Doc(SlotPowerupTile, k), &pt); err != nil {
				return domain.Change{}, err
			}
			v.PowerupTiles = append(v.PowerupTiles, pt)
		}
	}
	in := Input{Type: a.Type, Req: req}
	if env.DiceAt != nil {
		in.Dice = env.DiceAt(bd.Version + 1)
	}
	if a.Type == ActionCreateTeam {
		in.NewID = newTeamID(a)
	}
	if u, ok := req.(*UpdateTeamRequest); ok {
		u.PasswordChanged = a.Secret != ""
	}
	if (a.Type == ActionCreateTeam || a.Type == ActionAddAdmin) && a.Secret == "" {
		who := "team"
		if a.Type == ActionAddAdmin {
			who = "admin"
		}
		return domain.Change{}, domain.Errorf(domain.EINVALID, "password is required: the %s signs in with it", who)
	}
	nv, out, err := Run(Ctx{Actor: a.Actor, Now: env.Now, WebhookBase: g.webhookBase()}, v, in)
	if err != nil {
		if IsRandomiseFailure(err) {
			then := domain.Action{Type: actionAutoFog, Payload: mustJSON(map[string]string{"admin": v.Game.by(a.Actor)})}
			return domain.Change{}, withThen(err, then)
		}
		return domain.Change{}, err
	}
	if out.Wrote(DocPublicBoard) && !boardRead {
		return domain.Change{}, domain.Need(readFor(a.Type)(domain.Doc(SlotBoard, "")))
	}
	ch := domain.Change{Result: out.Result, Steps: []domain.Step{{Actor: a.Actor, Type: a.Type, Events: SayAll(out.Events)}}}
	if a.Type == ActionViewBoard || a.Type == ActionExportTasks {
		ch.Steps = nil // a read: no record
	}
	ch.Writes = writesOf(doc, bd, v, nv, out)
	if powerup && reads(DocTeams) {
		// A tile modification decided from every team's position: each
		// team it did not change is written back as read, on the condition
		// that it is unchanged since (a snapshot), so a team that moved
		// meanwhile makes the use run again.
		for _, t := range v.Teams {
			if id := domain.Doc(SlotTeam, t.ID); !wrote(ch.Writes, id) {
				ch.Writes = append(ch.Writes, domain.Write{DocID: id, Value: t})
			}
		}
	}
	if out.Wrote(DocGame) && nv.Game.Fog != bd.Fog {
		// The board mirrors the fog mode for the rules.
		if !boardRead {
			return domain.Change{}, domain.Need(domain.Locked(domain.Doc(SlotBoard, "")))
		}
		if !wrote(ch.Writes, domain.Doc(SlotBoard, "")) {
			ch.Writes = append(ch.Writes, domain.Write{DocID: domain.Doc(SlotBoard, ""), Value: BoardDoc{Board: nv.Board, Version: bd.Version, Fog: nv.Game.Fog}})
		}
	}
	if err := checkAwards(ch); err != nil {
		return domain.Change{}, err
	}
	ch.Writes = append(ch.Writes, DiscordOutbox(nv.Game, a.Actor.ID, a.ID, ch.Steps, slotsOf(v, nv), env.Now)...)
	if a.Type == ActionRemoveAdmin {
		if r, ok := req.(*AdminRequest); ok {
			ch.Writes = append(ch.Writes, domain.Write{DocID: CredDoc(CredAdmin, r.ID), Delete: true})
		}
	}
	if a.Secret != "" {
		kind, id := CredTeam, nv.Team.ID
		if r, ok := req.(*AdminRequest); ok {
			kind, id = CredAdmin, r.ID
		}
		ch.Writes = append(ch.Writes, domain.Write{DocID: CredDoc(kind, id), Value: domain.Credential{Hash: a.Secret}})
	}
	return ch, nil
}

// writesOf lists the documents an Outcome changed.
func writesOf(doc domain.GameDoc[Game], bd BoardDoc, old, nv Values, out Outcome) []domain.Write {
	var ws []domain.Write
	put := func(id domain.DocID, v any) { ws = append(ws, domain.Write{DocID: id, Value: v}) }
	for _, x := range out.Writes {
		switch x {
		case DocGame:
			h := raceHeader(nv.Game)
			ws = append(ws, domain.Write{DocID: domain.GameDocID, Value: nv.Game, Header: &h, Version: doc.Version + 1})
		case DocTeam:
			put(domain.Doc(SlotTeam, nv.Team.ID), nv.Team)
		case DocTarget:
			put(domain.Doc(SlotTeam, nv.Target.ID), nv.Target)
		case DocTeams:
			for _, t := range nv.Teams {
				put(domain.Doc(SlotTeam, t.ID), t)
			}
		case DocTile, DocBoard:
			put(domain.Doc(SlotBoard, ""), BoardDoc{Board: nv.Board, Version: bd.Version + 1, Fog: nv.Game.Fog})
		case DocPools:
			put(domain.Doc(SlotPools, ""), PoolsDoc{Pools: nv.Pools})
		case DocPowerupTile:
			put(domain.Doc(SlotPowerupTile, nv.PowerupTile.ID), nv.PowerupTile)
		case DocPowerupTiles:
			for _, pt := range nv.PowerupTiles {
				put(domain.Doc(SlotPowerupTile, pt.ID), pt)
			}
		case DocPublicBoard:
			put(domain.Doc(SlotPublicBoard, ""), publicBoard(nv.Game, nv.Board))
		case DocDiscord:
			put(domain.Doc(SlotDiscord, ""), nv.Discord)
			put(domain.Doc(SlotDiscordStatus, ""), nv.DiscordStatus)
		}
	}
	del := func(id domain.DocID) { ws = append(ws, domain.Write{DocID: id, Delete: true}) }
	for _, x := range out.Deletes {
		switch x {
		case DocTeam:
			del(domain.Doc(SlotTeam, old.Team.ID))
			del(CredDoc(CredTeam, old.Team.ID))
		case DocPowerupTile:
			del(domain.Doc(SlotPowerupTile, old.PowerupTile.ID))
		case DocPowerupTiles:
			for _, pt := range old.PowerupTiles {
				del(domain.Doc(SlotPowerupTile, pt.ID))
			}
		}
	}
	return ws
}

// slotsOf gives the Discord slot of a team an action concerns: from the
// team documents it read or wrote (the freshest), else the roster (a
// target team the action did not read).
func slotsOf(old, nv Values) func(team string) int {
	return func(team string) int {
		for _, t := range []Team{nv.Team, old.Team} {
			if t.ID == team && t.ID != "" {
				return t.Slot
			}
		}
		for _, ts := range [][]Team{nv.Teams, old.Teams} {
			for _, t := range ts {
				if t.ID == team {
					return t.Slot
				}
			}
		}
		for _, g := range []Game{nv.Game, old.Game} {
			if r, ok := g.TeamRef(team); ok {
				return r.Slot
			}
		}
		return 0
	}
}

// publicBoard is the public board of a game: every tile through the fog.
func publicBoard(g Game, b Board) PublicBoard {
	return PublicBoard{Tiles: ViewBoard(g, b, false), Fog: g.Fog, RevealedUpTo: g.RevealedUpTo}
}

// raceHeader is the platform header of a race: its status (its players are
// teams, kept in their own documents; a race has no deadline).
func raceHeader(g Game) domain.Header {
	status := domain.StatusActive
	switch g.Status {
	case StatusSetup:
		status = domain.StatusWaiting
	case StatusFinished:
		status = domain.StatusOver
	}
	return domain.Header{Status: status, Players: []string{}}
}

// newTeamID is the id of the team a createTeam makes: derived from the
// (race-scoped) admin and the action id, so a retried request makes the same
// team and two races never share a team id.
func newTeamID(a domain.Action) string {
	sum := sha256.Sum256([]byte(a.Actor.ID + "\x00" + a.ID))
	return "t-" + hex.EncodeToString(sum[:5])
}

// create makes a race in setup: the caller becomes its master admin (and is
// signed in as such), with an empty board and empty pools.
func (RaceGame) create(d domain.Docs, a domain.Action, env domain.Env) (domain.Change, error) {
	if d.Has(domain.GameDocID) {
		return domain.Change{}, domain.Errorf(domain.EEXISTS, "game %q already exists", a.GameID)
	}
	var req raceCreate
	if err := domain.DecodePayload(a.Payload, &req); err != nil {
		return domain.Change{}, err
	}
	g, b, p, err := NewGame(a.GameID, Admin{ID: MasterAdminID, Name: req.Name}, env.Now)
	if err != nil {
		return domain.Change{}, err
	}
	if a.Secret == "" {
		return domain.Change{}, domain.Errorf(domain.EINVALID, "password is required: the master admin signs in with it")
	}
	h := raceHeader(g)
	seedHash := ""
	if env.New != nil {
		seedHash = env.New.SeedHash
	}
	master := domain.Actor{ID: domain.ScopedID(g.ID, MasterAdminID), Name: g.Admins[0].Name, Role: RoleMaster, Game: g.ID}
	return domain.Change{
		Writes: []domain.Write{
			{DocID: domain.GameDocID, Value: g, Header: &h, Create: true},
			{DocID: domain.Doc(SlotBoard, ""), Value: BoardDoc{Board: b, Fog: g.Fog}},
			{DocID: domain.Doc(SlotPools, ""), Value: PoolsDoc{Pools: p}},
			{DocID: CredDoc(CredAdmin, MasterAdminID), Value: domain.Credential{Hash: a.Secret}},
			{DocID: domain.Doc(SlotPublicBoard, ""), Value: publicBoard(g, b)},
			{DocID: domain.Doc(SlotLeaderboard, ""), Value: RaceLeaderboard{Totals: map[string]int{}, Top: []Standing{}}},
		},
		Result:  map[string]any{"game": map[string]any{"gameId": g.ID, "masterId": MasterAdminID, "seedHash": seedHash}},
		Session: &master,
	}, nil
}

// autoFog is the system step after a randomiser's failure: the fog off for all.
func (RaceGame) autoFog(d domain.Docs, a domain.Action, env domain.Env) (domain.Change, error) {
	if a.Actor.Role != domain.RoleSystem {
		return domain.Change{}, domain.Errorf(domain.EINVALID, "unknown action type %q", a.Type)
	}
	var req struct {
		Admin string `json:"admin"`
	}
	if err := domain.DecodePayload(a.Payload, &req); err != nil {
		return domain.Change{}, err
	}
	doc, err := domain.ReadGame[Game](d, Kind)
	if err != nil {
		return domain.Change{}, err
	}
	var pb PublicBoard
	var bd BoardDoc
	if _, err := d.Get(domain.Doc(SlotPublicBoard, ""), &pb); err != nil {
		return domain.Change{}, err
	}
	if _, err := d.Get(domain.Doc(SlotBoard, ""), &bd); err != nil {
		return domain.Change{}, err
	}
	g := doc.State
	g.RevealedUpTo = pb.RevealedUpTo
	ng, out, ok := AutoDisableFog(g, req.Admin)
	if !ok {
		return domain.Change{}, nil
	}
	h := raceHeader(ng)
	return domain.Change{
		Steps: []domain.Step{{Actor: a.Actor, Type: a.Type, Events: SayAll(out.Events)}},
		Writes: []domain.Write{
			{DocID: domain.GameDocID, Value: ng, Header: &h, Version: doc.Version + 1},
			{DocID: domain.Doc(SlotPublicBoard, ""), Value: publicBoard(ng, bd.Board)},
			{DocID: domain.Doc(SlotBoard, ""), Value: BoardDoc{Board: bd.Board, Version: bd.Version, Fog: ng.Fog}},
		},
	}, nil
}

// by is the admin name recorded for an actor's action.
func (g Game) by(a domain.Actor) string {
	if n := (Ctx{Actor: a}).by(g); n != "" {
		return n
	}
	return a.Name
}

func withThen(err error, then domain.Action) error {
	if de, ok := err.(*domain.Error); ok {
		c := *de
		c.Then = append(c.Then, then)
		return &c
	}
	return err
}

func mustJSON(v any) json.RawMessage {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

// trimName is how a sign-in matches a team or admin name: ignoring case and
// surrounding spaces.
func sameName(a, b string) bool { return strings.EqualFold(strings.TrimSpace(a), strings.TrimSpace(b)) }

// legal answers ActionLegal from the documents Plan read.
func legal(d domain.Docs, a domain.Action, env domain.Env) (domain.Change, error) {
	doc, err := domain.ReadGame[Game](d, Kind)
	if err != nil {
		return domain.Change{}, err
	}
	var t Team
	var bd BoardDoc
	var pts []PowerupTile
	if a.Actor.Role == RoleTeam {
		if _, err := d.Get(domain.Doc(SlotTeam, a.Actor.Local()), &t); err != nil {
			return domain.Change{}, err
		}
		if _, err := d.Get(domain.Doc(SlotBoard, ""), &bd); err != nil {
			return domain.Change{}, err
		}
		for _, k := range d.Keys(SlotPowerupTile) {
			var pt PowerupTile
			if _, err := d.Get(domain.Doc(SlotPowerupTile, k), &pt); err != nil {
				return domain.Change{}, err
			}
			pts = append(pts, pt)
		}
	}
	moves := Legal(doc.State, t, bd.Board, pts, a.Actor, Ctx{Actor: a.Actor, Now: env.Now})
	if moves == nil {
		moves = []domain.Move{}
	}
	return domain.Change{Result: map[string]any{"moves": moves}}, nil
}

// ActionTypes implements domain.ActionTyper.
func (RaceGame) ActionTypes() []string { return append(ActionTypes(), domain.ActionCreate) }

// wrote reports whether ws writes id.
func wrote(ws []domain.Write, id domain.DocID) bool {
	for _, w := range ws {
		if w.DocID == id {
			return true
		}
	}
	return false
}

// publicHead is what an action reads of the public board: how far the fog
// is lifted, and its tiles undecoded but for the one a completion stands on
// (tileOfCompletion). Decoding every tile on every completion was a third
// of the rules' processor time in the load generator's 10-team burst; the
// head is read by readPublicHead.
type publicHead struct {
	RevealedUpTo int               `json:"revealedUpTo"`
	Tiles        []json.RawMessage `json:"tiles"`
}

// tileOfCompletion is the tile a team on position completes, as the public
// board shows it: a team stands on a revealed tile (the frontier follows the
// leader), whose public content is the private tile's, all but the pool task
// it came from (TaskID), which a completion does not use. False when the
// public board does not show it (the caller then reads the private board).
func tileOfCompletion(pb publicHead, position int) (Tile, bool) {
	if position < 1 || position > len(pb.Tiles) {
		return Tile{}, false
	}
	var pt PublicTile
	if json.Unmarshal(pb.Tiles[position-1], &pt) != nil || !pt.Revealed || pt.Content == nil || pt.N != position {
		return Tile{}, false
	}
	return Tile{N: pt.N, Layout: pt.Layout, Task: pt.Content.Task, Reward: pt.Content.Reward, Mods: pt.Content.Mods}, true
}

// readFor is how an action of type typ reads a document, in its Plan and in
// what it asks for later (NeedDocs). A team's action reads its documents as
// snapshots, as a powerup use does (planPowerup): what it writes is written
// on the condition that it did not change since the read, so it needs no
// lock, and the team's completions never wait on another team's, or on the
// board another completion read. What it only reads (the tile's content on
// the board) may change after the read: the action is then ordered before
// that change, which is what the one who changed it saw too. Others lock.
func readFor(typ string) func(domain.DocID) domain.Read {
	if Specs[typ].Who == WhoTeam {
		return func(id domain.DocID) domain.Read { return domain.Read{DocID: id, Snapshot: true} }
	}
	return domain.Locked
}
