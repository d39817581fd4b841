// Package games is the registry: every game Meeple hosts, as the one value
// (domain.Entry) the platform derives its functions, triggers, sign-ins,
// demos and load scenarios from. The deploy root (meeple.go) and the local
// stack import it; the platform packages (store, functions, triggers) never
// do — they are handed the registry.
//
// Adding a game is its domain/<game> package and one entry here
// (docs/architecture.md).
package games

import (
	"time"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/bot"
	"github.com/meeple-games/meeple/domain/codebowl"
	"github.com/meeple-games/meeple/domain/dashdice"
	"github.com/meeple-games/meeple/domain/hexdice"
	"github.com/meeple-games/meeple/domain/partyboard"
	"github.com/meeple-games/meeple/domain/tilerace"
)

// MaxUploadBody caps the requests of games that take files: a Party Board
// board (the real ones are about 35 KB), a Tile Race CSV/TSV import (up to
// 512 KiB, JSON-escaped).
const MaxUploadBody = 1 << 20

// partyBoard is Party Board's game: its bots play the boards it loads.
var partyBoard = partyboard.NewPlatformGame()

var all = domain.Registry{
	{
		Game:     dashdice.NewGame(),
		Function: "DashDice",
		Stats:    true,
		Bots:     bot.New(clocked(dashdice.BotSpec())),
		Demo:     dashDiceDemo,
		Load:     dashDiceLoad,
	},
	{
		Game:     partyBoard,
		Function: "PartyBoard",
		MaxBody:  MaxUploadBody,
		Stats:    true,
		Bots:     bot.New(clocked(partyboard.BotSpec(partyBoard.Boards()))), // the game's own boards
		Demo:     partyBoardDemo,
		Load:     partyBoardLoad,
	},
	{
		Game:     tilerace.RaceGame{DiscordBase: discordBase},
		Function: "TileRace",
		MaxBody:  MaxUploadBody,
		SignIns:  tilerace.SignIns(),
		Outbox:   raceOutbox(discordSender),
		Demo:     tileRaceDemo,
		Load:     tileRaceLoad,

		// The race's leaderboard, summed from the teams' points in the tick.
		Projection: tilerace.LeaderboardProjection(),
	},
	{
		Game:     hexdice.NewPlatformGame(),
		Function: "HexDice",
		Stats:    true, // per turn mode (docs/hexdice.md)
		Bots:     hexdice.NewBots(clocked(hexdice.BotSpec())),
		Demo:     hexDiceDemo,
		Load:     hexDiceLoad,
	},
	{
		Game:     codebowl.NewPlatformGame(),
		Function: "CodeBowl",
		Stats:    true,                                 // coaches' wins, draws and losses; one leaderboard (docs/codebowl.md)
		Bots:     bot.New(clocked(codebowl.BotSpec())), // a bot's join makes its team (codebowl/botseat.go)
		Demo:     codeBowlDemo,
		Load:     codeBowlLoad,
	},
}

// All returns the registry.
func All() domain.Registry { return all }

// clocked bounds a bot's strong moves by the wall clock too (bot.DefaultBudget)
// besides their playouts, so a slow instance never takes long over a move.
func clocked[S any](sp bot.Spec[S]) bot.Spec[S] {
	sp.Clock = time.Now
	return sp
}
