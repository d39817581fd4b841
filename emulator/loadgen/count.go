package main

import (
	"context"

	"cloud.google.com/go/firestore"
	"google.golang.org/api/option"

	"github.com/meeple-games/meeple/store/fsemu"
)

// countedClient is a Firestore client of project on the emulator at host
// whose reads and writes c counts (the crowd scenario's emulation of the old
// quick match and leaderboard), and what closes it.
func countedClient(ctx context.Context, host, project string, c *fsemu.Counter) (*firestore.Client, func(), error) {
	conn, err := c.Dial(host)
	if err != nil {
		return nil, nil, err
	}
	fs, err := firestore.NewClient(ctx, project, option.WithGRPCConn(conn))
	if err != nil {
		conn.Close()
		return nil, nil, err
	}
	return fs, func() { fs.Close(); conn.Close() }, nil
}
