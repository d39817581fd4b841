package tilerace

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/meeple-games/meeple/domain"
)

// Discord's documents and destinations.
const (
	SlotDiscord       = "discord"       // games/{id}/private/discord: DiscordDoc (never readable: webhook URLs are secrets)
	SlotDiscordStatus = "discordStatus" // games/{id}/private/discordStatus: DiscordStatus (the game's admins)

	// DestMain is the main webhook's destination; a team slot's is
	// DestSlot(n) = "slot{n}".
	DestMain = "main"

	// EventDiscordSet is the event of setDiscord: which destinations are
	// configured (never their URLs).
	EventDiscordSet = "discordSet" // DiscordSetData

	// MaxSlot is the highest team webhook slot.
	MaxSlot = 5
)

// DestSlot is the destination of team webhook slot n.
func DestSlot(n int) string { return "slot" + strconv.Itoa(n) }

// DiscordDoc is games/{id}/private/discord: the webhook URLs by destination
// ("main", "slot1" … "slot5"). No client ever reads it.
type DiscordDoc struct {
	Webhooks map[string]string `json:"webhooks"`
}

// DiscordStatus is games/{id}/private/discordStatus: per destination, what
// the admins should know about delivery (a deleted webhook, a destination
// messages went to while it was not configured). No URL is ever in it.
type DiscordStatus struct {
	Destinations map[string]DestinationStatus `json:"destinations"`
}

// DestinationStatus is one destination's delivery state.
type DestinationStatus struct {
	// State: "ok" (configured; no message given up since), "failed" (a
	// message could not be delivered and was given up: Error says why).
	State  string    `json:"state"`
	Error  string    `json:"error,omitempty"`
	Failed int       `json:"failed,omitempty"` // messages given up since it was configured
	At     time.Time `json:"at"`
}

// Destination states.
const (
	DestOK     = "ok"
	DestFailed = "failed"
)

// DiscordSetData is the data of EventDiscordSet.
type DiscordSetData struct {
	Configured []string `json:"configured"` // destinations with a webhook now, sorted
	Changed    []string `json:"changed"`    // destinations set or removed by this action
	By         string   `json:"by"`
}

// SetDiscordRequest is the payload of "setDiscord": a webhook URL for the
// main channel and for team slots "1" … "5". An absent field stays, "" removes.
type SetDiscordRequest struct {
	Main  *string           `json:"main,omitempty" field:"url,http"`
	Slots map[string]string `json:"slots,omitempty" field:"map,max=5" key:"enum=1|2|3|4|5" elem:"url,http"` // CheckWebhookURL: Discord's https URLs
}

// Discord webhook URL shape.
var discordHosts = map[string]bool{"discord.com": true, "discordapp.com": true, "ptb.discord.com": true, "canary.discord.com": true}

// CheckWebhookURL checks that raw is a Discord webhook URL:
// https://discord.com/api/webhooks/{id}/{token} (or discordapp.com, or with
// an API version such as /api/v10). allowBase, when not empty, also lets
// through {allowBase}/api/webhooks/{id}/{token} — the local stack's and the
// tests' fake Discord (MEEPLE_DISCORD_BASE, docs/tilerace.md); production
// never sets it. The error never repeats the URL (it is a secret).
//
// Errors: EINVALID naming field.
func CheckWebhookURL(field, raw, allowBase string) error {
	bad := domain.Errorf(domain.EINVALID, "%s is not a Discord webhook URL (https://discord.com/api/webhooks/{id}/{token})", field)
	if len(raw) > 512 {
		return bad
	}
	u, err := url.Parse(raw)
	if err != nil || u.User != nil || u.RawQuery != "" || u.Fragment != "" || u.Opaque != "" {
		return bad
	}
	path := u.EscapedPath()
	switch {
	case u.Scheme == "https" && discordHosts[strings.ToLower(u.Host)]:
	case allowBase != "" && strings.HasPrefix(raw, strings.TrimSuffix(allowBase, "/")+"/"):
		b, err := url.Parse(strings.TrimSuffix(allowBase, "/"))
		if err != nil {
			return bad
		}
		path = strings.TrimPrefix(path, b.EscapedPath())
	default:
		return bad
	}
	parts := strings.Split(strings.TrimPrefix(path, "/"), "/")
	if len(parts) == 5 && parts[0] == "api" && isAPIVersion(parts[1]) {
		parts = append(parts[:1], parts[2:]...)
	}
	if len(parts) != 4 || parts[0] != "api" || parts[1] != "webhooks" || !isSnowflake(parts[2]) || !isToken(parts[3]) {
		return bad
	}
	return nil
}

func isAPIVersion(s string) bool {
	n, ok := strings.CutPrefix(s, "v")
	_, err := strconv.Atoi(n)
	return ok && err == nil
}

func isSnowflake(s string) bool {
	if s == "" || len(s) > 20 {
		return false
	}
	_, err := strconv.ParseUint(s, 10, 64)
	return err == nil
}

func isToken(s string) bool {
	if s == "" || len(s) > 100 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '-' || r == '_' || r == '.') {
			return false
		}
	}
	return true
}

// SetDiscord sets or removes webhook URLs. The game document records which
// destinations are configured (Game.Webhooks, no URLs), so every action
// knows where its announcements go without reading the secret document; the
// status of each changed destination starts afresh.
//
// Reads the game, the Discord document and its status; writes all three.
//
// Errors: EFORBIDDEN; EINVALID (a bad slot or URL, nothing given).
func SetDiscord(c Ctx, g Game, doc DiscordDoc, st DiscordStatus, req SetDiscordRequest) (Game, DiscordDoc, DiscordStatus, Outcome, error) {
	var o Outcome
	if err := Authorize(g, c.Actor, ActionSetDiscord, ""); err != nil {
		return g, doc, st, o, err
	}
	if req.Main == nil && len(req.Slots) == 0 {
		return g, doc, st, o, domain.Errorf(domain.EINVALID, "give main or slots: the webhook URLs to set (\"\" removes one)")
	}
	set := map[string]string{}
	if req.Main != nil {
		if *req.Main != "" {
			if err := CheckWebhookURL("main", *req.Main, c.WebhookBase); err != nil {
				return g, doc, st, o, err
			}
		}
		set[DestMain] = *req.Main
	}
	for _, k := range domain.SortedKeys(req.Slots) {
		n, err := strconv.Atoi(k)
		if err != nil || n < 1 || n > MaxSlot || strconv.Itoa(n) != k {
			return g, doc, st, o, domain.Errorf(domain.EINVALID, "slots: the slots are \"1\" to \"%d\", not %q", MaxSlot, cut(k, 20))
		}
		if v := req.Slots[k]; v != "" {
			if err := CheckWebhookURL("slots."+k, v, c.WebhookBase); err != nil {
				return g, doc, st, o, err
			}
		}
		set[DestSlot(n)] = req.Slots[k]
	}
	nd := DiscordDoc{Webhooks: map[string]string{}}
	for k, v := range doc.Webhooks {
		nd.Webhooks[k] = v
	}
	ns := DiscordStatus{Destinations: map[string]DestinationStatus{}}
	for k, v := range st.Destinations {
		ns.Destinations[k] = v
	}
	var changed []string
	for _, dest := range domain.SortedKeys(set) {
		if set[dest] == "" {
			delete(nd.Webhooks, dest)
			delete(ns.Destinations, dest)
		} else {
			nd.Webhooks[dest] = set[dest]
			ns.Destinations[dest] = DestinationStatus{State: DestOK, At: c.Now.UTC()}
		}
		changed = append(changed, dest)
	}
	g = g.clone()
	g.Webhooks = domain.SortedKeys(nd.Webhooks)
	o.write(DocGame, DocDiscord)
	o.emit(EventDiscordSet, "", DiscordSetData{Configured: append([]string{}, g.Webhooks...), Changed: changed, By: c.by(g)})
	o.Result = map[string]any{"configured": g.Webhooks}
	return g, nd, ns, o, nil
}

// DiscordOutbox turns one action's steps into outbox messages: each
// announcement to the main webhook and to the slot webhook of each team it
// concerns, for the destinations configured (g.Webhooks). slotOf gives a
// team's slot (0: none). Keys derive from the actor and action id, so
// they are the same whenever the same action runs.
func DiscordOutbox(g Game, actorID, actionID string, steps []domain.Step, slotOf func(team string) int, now time.Time) []domain.Write {
	if len(g.Webhooks) == 0 {
		return nil
	}
	configured := map[string]bool{}
	for _, d := range g.Webhooks {
		configured[d] = true
	}
	sum := sha256.Sum256([]byte(actorID + "\x00" + actionID))
	prefix := hex.EncodeToString(sum[:8])
	var ws []domain.Write
	n := 0
	for _, s := range steps {
		for _, an := range Announcements(s.Events, g.TeamRef, now) {
			n++
			body, err := json.Marshal(WebhookBody{Embeds: []Embed{an.Embed}, AllowedMentions: AllowedMentions{Parse: []string{}}})
			if err != nil {
				continue
			}
			dests := []string{DestMain}
			for _, t := range an.Teams {
				if s := slotOf(t); s > 0 {
					dests = append(dests, DestSlot(s))
				}
			}
			seen := map[string]bool{}
			for _, d := range dests {
				if seen[d] || !configured[d] {
					continue
				}
				seen[d] = true
				ws = append(ws, domain.Write{
					DocID:  domain.Doc(domain.SlotOutbox, prefix+"-"+strconv.Itoa(n)+"-"+d),
					Create: true,
					Value:  domain.Message{To: d, Body: body, Source: s.Type},
				})
			}
		}
	}
	return ws
}

// DeliveryFailed is the Outbox.Failed of a race: a message given up marks
// its destination failed in the status document the admins read, with the
// reason (never the URL) and how many messages were lost since the
// destination was last set.
func DeliveryFailed(d domain.Docs, m domain.Message, f domain.DeliveryError, now time.Time) []domain.Write {
	var st DiscordStatus
	if _, err := d.Get(domain.Doc(SlotDiscordStatus, ""), &st); err != nil {
		st = DiscordStatus{}
	}
	if st.Destinations == nil {
		st.Destinations = map[string]DestinationStatus{}
	}
	prev := st.Destinations[m.To]
	st.Destinations[m.To] = DestinationStatus{State: DestFailed, Error: f.Error(), Failed: prev.Failed + 1, At: now.UTC()}
	return []domain.Write{{DocID: domain.Doc(SlotDiscordStatus, ""), Value: st}}
}

// WebhookOf is the URL of a message's destination ("" when not configured),
// from the private/discord document the deliverer read.
func WebhookOf(d domain.Docs, m domain.Message) string {
	var doc DiscordDoc
	if _, err := d.Get(domain.Doc(SlotDiscord, ""), &doc); err != nil {
		return ""
	}
	return doc.Webhooks[m.To]
}
