package tilerace

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/meeple-games/meeple/domain"
)

// Discord announcements (ruling 22, seed "Discord Integration"). Every
// message is formatted from the events alone: events are public, so an
// announcement can never carry the content of a hidden tile.

// Embed is a Discord embed, in the field names of Discord's API.
type Embed struct {
	Title       string       `json:"title,omitempty"`
	Description string       `json:"description,omitempty"`
	Color       int          `json:"color,omitempty"`
	Fields      []EmbedField `json:"fields,omitempty"`
	Footer      *EmbedFooter `json:"footer,omitempty"`
	Timestamp   string       `json:"timestamp,omitempty"` // RFC 3339
}

// EmbedField is one field of an embed.
type EmbedField struct {
	Name   string `json:"name"`
	Value  string `json:"value"`
	Inline bool   `json:"inline,omitempty"`
}

// EmbedFooter is an embed's footer.
type EmbedFooter struct {
	Text string `json:"text"`
}

// WebhookBody is what a webhook is sent: one embed, and no mentions parsed,
// so a player called "@everyone" pings nobody.
type WebhookBody struct {
	Embeds          []Embed         `json:"embeds"`
	AllowedMentions AllowedMentions `json:"allowed_mentions"`
}

// AllowedMentions is Discord's allowed_mentions object.
type AllowedMentions struct {
	Parse []string `json:"parse"`
}

// Announcement is one message and the teams it concerns (the acting team,
// a target team): the main webhook gets every announcement, each concerned
// team's slot webhook gets it too.
type Announcement struct {
	Teams []string
	Embed Embed
}

// Embed limits (Discord rejects longer ones with a 400, which would never
// go away: better a cut message than none).
const (
	maxTitle       = 256
	maxDescription = 4096
	maxFieldValue  = 1024
)

// Discord colour of an event without a team.
const colorGame = 0x5865F2

// Emoji of the seed's messages.
const (
	emojiCompleted = "✅"
	emojiClaim     = "🎁"
	emojiPowerup   = "⚡"
	emojiMoved     = "📍"
	emojiStar      = "⭐"
	emojiAdmin     = "👤"
	emojiWarning   = "⚠️"
)

// Announcements turns one step's events into the messages announcing them.
// roster gives a team's colour by id (a removed team's comes with its
// event); now stamps the embeds.
// Titles are the events' words (say.go) with an emoji, so Discord and the
// clients read the same.
func Announcements(events []domain.Event, roster func(team string) (TeamRef, bool), now time.Time) []Announcement {
	decoded := make([]decodedEvent, 0, len(events))
	has := map[string]bool{}
	for _, e := range events {
		raw, err := json.Marshal(e.Data)
		if err != nil {
			continue
		}
		decoded = append(decoded, decodedEvent{typ: e.Type, player: e.Player, data: raw})
		has[e.Type] = true
	}
	colorOf := func(team, fallback string) int {
		if c, ok := parseColor(fallback); ok {
			return c
		}
		if r, ok := roster(team); ok {
			if c, ok := parseColor(r.Color); ok {
				return c
			}
		}
		return colorGame
	}
	stamp := now.UTC().Format(time.RFC3339)
	var out []Announcement
	add := func(teams []string, color int, title string, lines ...string) {
		out = append(out, Announcement{Teams: teams, Embed: Embed{
			Title: cut(title, maxTitle), Description: cut(joinLines(lines), maxDescription), Color: color, Timestamp: stamp,
		}})
	}
	for _, e := range decoded {
		switch e.typ {
		case EventTileCompleted:
			var d TileCompletedData
			if !e.decode(&d) {
				continue
			}
			lines := []string{adminLine(d.By), "**Task:** " + d.Label}
			lines = append(lines, starLines(d.Players, d.Points)...)
			if d.Tile == FinalTile {
				lines = append(lines, "🏆 Final tile completed!")
			} else {
				lines = append(lines, fmt.Sprintf("%s **Position:** tile %d", emojiMoved, d.Position))
			}
			if d.Doubled {
				lines = append(lines, "✖️2 This tile was doubled.")
			}
			if d.StartProof {
				lines = append(lines, emojiWarning+" **START CHECK:** this task needs a start picture — check it was taken.")
			}
			if d.Reward != "" {
				lines = append(lines, fmt.Sprintf("%s **Reward:** %s", emojiClaim, powerupName(d.Reward)))
			}
			add([]string{d.Team}, colorOf(d.Team, ""), emojiCompleted+" "+d.words(), lines...)
		case EventCompletionsRecorded:
			if has[EventTileCompleted] {
				continue // the completion lists every player of the tile
			}
			var d RecordedData
			if !e.decode(&d) {
				continue
			}
			lines := []string{adminLine(d.By), "**Task:** " + d.Label}
			lines = append(lines, starLines(d.Players, d.Points)...)
			lines = append(lines, fmt.Sprintf("**Progress:** %d recorded (needs %d, at most %d)", d.Recorded, d.Min, d.Max))
			add([]string{d.Team}, colorOf(d.Team, ""), emojiCompleted+" "+d.words(), lines...)
		case EventPowerupTileClaimed:
			var d ClaimedData
			if !e.decode(&d) {
				continue
			}
			lines := []string{adminLine(d.By), "**Powerup gained:** " + powerupName(d.Reward), "**Task:** " + d.Label}
			lines = append(lines, starLines(d.Players, d.Points)...)
			add([]string{d.Team}, colorOf(d.Team, ""), emojiClaim+" "+d.words(), lines...)
		case EventPowerupGained:
			var d PowerupGainedData
			if !e.decode(&d) || !d.Granted {
				continue // a reward is in the completion's or the claim's message
			}
			add([]string{d.Team}, colorOf(d.Team, ""), emojiClaim+" "+d.words(), adminLine(d.By))
		case EventPowerupUsed:
			var d PowerupUsedData
			if !e.decode(&d) {
				continue
			}
			teams := []string{d.Team}
			if d.Target != "" && d.Target != d.Team {
				teams = append(teams, d.Target)
			}
			add(teams, colorOf(d.Team, ""), emojiPowerup+" "+d.words(), powerupLines(d)...)
		case EventTeamMoved:
			if has[EventPowerupUsed] {
				continue // the powerup's message says where it moved whom
			}
			var d MovedData
			if !e.decode(&d) {
				continue
			}
			add([]string{d.Team}, colorOf(d.Team, ""), emojiMoved+" "+d.words(), adminLine(d.By))
		case EventTeamCreated, EventTeamRemoved:
			var d TeamData
			if !e.decode(&d) {
				continue
			}
			title := "➕ " + d.words(e.typ)
			if e.typ == EventTeamRemoved {
				title = "➖ " + d.words(e.typ)
			}
			lines := []string{adminLine(d.By)}
			if len(d.Members) > 0 {
				lines = append(lines, "**Members:** "+strings.Join(d.Members, ", "))
			}
			if d.Slot > 0 && e.typ == EventTeamCreated {
				lines = append(lines, fmt.Sprintf("**Discord slot:** %d", d.Slot))
			}
			add([]string{d.Team}, colorOf(d.Team, d.Color), title, lines...)
		case EventTeamUpdated:
			var d TeamUpdatedData
			if !e.decode(&d) {
				continue
			}
			lines := []string{adminLine(d.By)}
			for _, c := range d.Changes {
				lines = append(lines, "• "+c)
			}
			add([]string{d.Team}, colorOf(d.Team, ""), "✏️ "+d.words(), lines...)
		case EventCooldownSet:
			var d CooldownData
			if !e.decode(&d) {
				continue
			}
			add([]string{d.Team}, colorOf(d.Team, ""), "⏳ "+d.words(), adminLine(d.By))
		case EventGameStarted, EventGameReset:
			var d AdminData
			if !e.decode(&d) {
				continue
			}
			title := "🏁 " + Say(domain.Event{Type: e.typ})
			if e.typ == EventGameReset {
				title = "🔄 " + Say(domain.Event{Type: e.typ})
			}
			add(nil, colorGame, title, adminLine(d.By))
		case EventTeamWon:
			var d TeamWonData
			if !e.decode(&d) {
				continue
			}
			add([]string{d.Team}, colorOf(d.Team, ""), "🏆 "+d.words(), adminLine(d.By), "**Members:** "+strings.Join(d.Members, ", "))
		case EventUndone:
			var d UndoneData
			if !e.decode(&d) {
				continue
			}
			lines := []string{adminLine(d.By)}
			if len(d.TeamNames) > 0 {
				lines = append(lines, "**Affected teams:** "+strings.Join(d.TeamNames, ", "))
			} else {
				lines = append(lines, "**Affected teams:** none")
			}
			for _, a := range d.Actions {
				line := "• " + a.Type
				if a.Actor != "" {
					line += " by " + a.Actor
				}
				lines = append(lines, line)
			}
			for _, r := range decoded {
				var p PointsReversedData
				if r.typ == EventPointsReversed && r.decode(&p) {
					lines = append(lines, fmt.Sprintf("➖ %s pts from %s (%s)", FormatPoints(p.Points), p.Player, p.TeamName))
				}
			}
			add(d.Teams, colorGame, "↩️ "+d.words(), lines...)
		}
	}
	return out
}

type decodedEvent struct {
	typ, player string
	data        json.RawMessage
}

func (e decodedEvent) decode(v any) bool { return json.Unmarshal(e.data, v) == nil }

// powerupLines are the details of a powerup's use: target, tile changes,
// movement.
func powerupLines(d PowerupUsedData) []string {
	lines := []string{adminLine(d.By)}
	if d.TargetName != "" {
		lines = append(lines, "🎯 **Target:** "+d.TargetName)
	}
	if d.Removed != "" {
		lines = append(lines, "🚫 **Removed:** "+powerupName(d.Removed))
	}
	if d.Duplicated != "" {
		lines = append(lines, "➕ **Duplicated:** "+powerupName(d.Duplicated))
	}
	if d.Tile > 0 {
		switch {
		case d.Source > 0:
			lines = append(lines, fmt.Sprintf("📋 Tile %d copied onto tile %d", d.Source, d.Tile))
		case d.Powerup == PowerupChangeTile:
			lines = append(lines, fmt.Sprintf("🔀 Tile %d changed", d.Tile))
		case strings.HasPrefix(d.Powerup, "double"):
			lines = append(lines, fmt.Sprintf("✖️2 Tile %d doubled", d.Tile))
		default:
			lines = append(lines, fmt.Sprintf("Tile %d", d.Tile))
		}
		if d.Label != "" {
			lines = append(lines, "**New task:** "+d.Label)
		}
	}
	if d.From > 0 && d.To > 0 {
		who := d.TeamName
		if d.TargetName != "" && strings.HasPrefix(d.Powerup, "back") {
			who = d.TargetName
		}
		lines = append(lines, fmt.Sprintf("%s %s: tile %d%s → tile %d%s", emojiMoved, who, d.From, labelSuffix(d.FromLabel), d.To, labelSuffix(d.ToLabel)))
	}
	return lines
}

func labelSuffix(l string) string {
	if l == "" {
		return ""
	}
	return " (" + l + ")"
}

// adminLine is the first line of a message an admin caused ("" otherwise,
// dropped by joinLines).
func adminLine(by string) string {
	if by == "" {
		return ""
	}
	return emojiAdmin + " **Admin:** " + by
}

// starLines lists each player once, in order of first completion, with the
// points their completions earned (each completion earns pts hundredths).
func starLines(players []string, pts int) []string {
	count := map[string]int{}
	var order []string
	for _, p := range players {
		if count[p] == 0 {
			order = append(order, p)
		}
		count[p]++
	}
	lines := make([]string, 0, len(order))
	for _, p := range order {
		times := ""
		if count[p] > 1 {
			times = fmt.Sprintf(" ×%d", count[p])
		}
		lines = append(lines, fmt.Sprintf("%s %s%s — %s pts", emojiStar, p, times, FormatPoints(count[p]*pts)))
	}
	return lines
}

func powerupName(id string) string {
	for _, p := range Powerups() {
		if p.ID == id {
			return p.Name
		}
	}
	return id
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}

func joinLines(lines []string) string {
	var kept []string
	for _, l := range lines {
		if l != "" {
			kept = append(kept, l)
		}
	}
	return strings.Join(kept, "\n")
}

// cut shortens s to at most n runes, marking the cut.
func cut(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// parseColor reads "#rrggbb".
func parseColor(s string) (int, bool) {
	if len(s) != 7 || s[0] != '#' {
		return 0, false
	}
	v, err := strconv.ParseUint(s[1:], 16, 32)
	if err != nil {
		return 0, false
	}
	return int(v), true
}
