package games

import (
	"context"
	"os"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/domain/tilerace"
	"github.com/meeple-games/meeple/notify/discord"
)

// DiscordBaseEnv names the environment variable holding a base URL
// (http://127.0.0.1:PORT) whose webhooks Tile Race accepts and sends to
// besides Discord's: the fake Discord of the local stack, tests and the load
// generator. Production never sets it.
const DiscordBaseEnv = "MEEPLE_DISCORD_BASE"

// discordBase is read at each use, so a test or the local stack may set it
// after the registry is built.
func discordBase() string { return os.Getenv(DiscordBaseEnv) }

// discordSender is the process's one Discord sender: its rate limiter holds
// every webhook's buckets across messages.
var discordSender = &discord.Sender{AllowBase: discordBase}

// raceOutbox delivers Tile Race's announcements: the message's destination
// is looked up in private/discord at each attempt (a URL changed meanwhile
// is used; a destination removed meanwhile gives the message up), and a
// message given up is reported in private/discordStatus.
func raceOutbox(s *discord.Sender) *domain.Outbox {
	return &domain.Outbox{
		Reads: []domain.DocID{domain.Doc(tilerace.SlotDiscord, ""), domain.Doc(tilerace.SlotDiscordStatus, "")},
		Deliver: func(ctx context.Context, d domain.Docs, m domain.Message) error {
			url := tilerace.WebhookOf(d, m)
			if url == "" {
				return &domain.DeliveryError{Permanent: true, Reason: "no webhook is configured for " + m.To}
			}
			return s.Send(ctx, url, m.Body)
		},
		Failed: tilerace.DeliveryFailed,
	}
}
