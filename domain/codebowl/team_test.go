package codebowl

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
)

func TestNewTeam(t *testing.T) {
	tm, err := NewTeam("reds", "ann", TeamSpec{Name: "  Reds  ", Image: " https://img.example/r.png ", Players: spec("Reds").Players})
	require.NoError(t, err)
	require.Equal(t, "Reds", tm.Name, "names are trimmed")
	require.Equal(t, "https://img.example/r.png", tm.Image)
	require.Equal(t, "ann", tm.Coach)
	require.Equal(t, 8, tm.NextPlayer)
	for i, p := range tm.Players {
		require.Equal(t, playerID("reds", i+1), p.ID)
		require.Equal(t, DefaultArmor, p.AR, "no armor given: the default on each")
		require.False(t, p.Dead)
	}
	require.Equal(t, TeamSize, tm.Alive())
	require.NoError(t, ValidateTeam(tm))
}

func TestValidateTeam(t *testing.T) {
	valid := team(t, "reds", ann)
	for _, c := range []struct {
		name  string
		edit  func(*Team)
		field string // the message names it
	}{
		{"no name", func(tm *Team) { tm.Name = "" }, "name"},
		{"blank name", func(tm *Team) { tm.Name = "   " }, "name"},
		{"name of 41", func(tm *Team) { tm.Name = strings.Repeat("x", 41) }, "name"},
		{"name with a control character", func(tm *Team) { tm.Name = "Reds\x07" }, "name"},
		{"name with a newline", func(tm *Team) { tm.Name = "Re\nds" }, "name"},
		{"name not UTF-8", func(tm *Team) { tm.Name = "Re\xffds" }, "name"},
		{"name with surrounding space", func(tm *Team) { tm.Name = " Reds" }, "name"},
		{"http image", func(tm *Team) { tm.Image = "http://img.example/a.png" }, "image"},
		{"javascript image", func(tm *Team) { tm.Image = "javascript:alert(1)" }, "image"},
		{"data image", func(tm *Team) { tm.Image = "data:image/png;base64,AAAA" }, "image"},
		{"relative image", func(tm *Team) { tm.Image = "/a.png" }, "image"},
		{"image without host", func(tm *Team) { tm.Image = "https:///a.png" }, "image"},
		{"image opaque", func(tm *Team) { tm.Image = "https:a.png" }, "image"},
		{"image with user info", func(tm *Team) { tm.Image = "https://user:pw@img.example/a.png" }, "image"},
		{"image with a space", func(tm *Team) { tm.Image = "https://img.example/a b.png" }, "image"},
		{"image with a quote", func(tm *Team) { tm.Image = `https://x.example/a"onerror="alert(1)` }, "image"},
		{"player image with angle brackets", func(tm *Team) { tm.Players[1].Image = "https://x.example/<svg>" }, "players[1].image"},
		{"image too long", func(tm *Team) { tm.Image = "https://img.example/" + strings.Repeat("a", MaxImageURL) }, "image"},
		{"player image http", func(tm *Team) { tm.Players[3].Image = "http://x.example/p.png" }, "players[3].image"},
		{"player without name", func(tm *Team) { tm.Players[2].Name = "" }, "players[2].name"},
		{"player name of 31", func(tm *Team) { tm.Players[2].Name = strings.Repeat("é", 31) }, "players[2].name"},
		{"13 points", func(tm *Team) { tm.Players[0].ST = 5 }, "players[0]"},
		{"11 points", func(tm *Team) { tm.Players[0].MV = 3 }, "players[0]"},
		{"ST 0", func(tm *Team) { p := &tm.Players[1]; p.ST, p.AG, p.MV = 0, 6, 6 }, "players[1].st"},
		{"AG 0", func(tm *Team) { p := &tm.Players[1]; p.ST, p.AG, p.MV = 6, 0, 6 }, "players[1].ag"},
		{"MV negative", func(tm *Team) { p := &tm.Players[1]; p.ST, p.AG, p.MV = 7, 6, -1 }, "players[1].mv"},
		{"armor 0", func(tm *Team) { tm.Players[0].AR, tm.Players[1].AR = 0, 6 }, "players[0].ar"},
		{"armor 7", func(tm *Team) { tm.Players[0].AR, tm.Players[1].AR, tm.Players[2].AR, tm.Players[3].AR = 7, 1, 1, 2 }, "players[0].ar"},
		{"armor over budget", func(tm *Team) { tm.Players[0].AR = 4 }, "armor"},
		{"duplicate player id", func(tm *Team) { tm.Players[4].ID = tm.Players[0].ID }, "players[4].id"},
		{"player id with slash", func(tm *Team) { tm.Players[4].ID = "a/b" }, "players[4].id"},
		{"no coach", func(tm *Team) { tm.Coach = "" }, "coach"},
		{"no id", func(tm *Team) { tm.ID = "" }, "id"},
	} {
		t.Run(c.name, func(t *testing.T) {
			tm := valid
			c.edit(&tm)
			err := ValidateTeam(tm)
			require.Error(t, err)
			require.Equal(t, domain.EINVALID, domain.ErrorCode(err), "got %v", err)
			require.Contains(t, domain.ErrorMessage(err), c.field)
		})
	}
	for _, c := range []struct {
		name string
		edit func(*Team)
	}{
		{"no image", func(tm *Team) { tm.Image = "" }},
		{"https with port, query and fragment", func(tm *Team) { tm.Image = "https://cdn.example:8443/a.png?s=64#x" }},
		{"HTTPS upper case", func(tm *Team) { tm.Image = "HTTPS://img.example/a.png" }},
		{"name of 40 runes", func(tm *Team) { tm.Name = strings.Repeat("ü", 40) }},
		{"a 10/1/1 player", func(tm *Team) { p := &tm.Players[0]; p.ST, p.AG, p.MV = 10, 1, 1 }},
		{"armor spread 6/1/…", func(tm *Team) {
			for i, ar := range []int{6, 1, 1, 6, 3, 2, 2} {
				tm.Players[i].AR = ar
			}
		}},
		{"dead players still count", func(tm *Team) { tm.Players[0].Dead = true }},
	} {
		t.Run("ok/"+c.name, func(t *testing.T) {
			tm := valid
			c.edit(&tm)
			require.NoError(t, ValidateTeam(tm))
		})
	}
}

func TestNewTeamRefusals(t *testing.T) {
	six := spec("Reds")
	six.Players = six.Players[:6]
	for _, c := range []struct {
		name, id, coach string
		spec            TeamSpec
	}{
		{"six players", "reds", "ann", six},
		{"no id", "", "ann", spec("Reds")},
		{"id with slash", "re/ds", "ann", spec("Reds")},
		{"no coach", "reds", "", spec("Reds")},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := NewTeam(c.id, c.coach, c.spec)
			require.Equal(t, domain.EINVALID, domain.ErrorCode(err), "got %v", err)
		})
	}
}

func TestEditTeam(t *testing.T) {
	tm := team(t, "reds", ann)
	tm, _ = RemoveDead(tm, []string{"reds.2"})
	sp := spec("Renamed")
	sp.Players[0] = PlayerSpec{Name: "Bruiser", ST: 8, AG: 2, MV: 2}
	sp.Players[1] = PlayerSpec{Name: "Ghost", ST: 10, AG: 1, MV: 1} // dead: ignored
	got, err := EditTeam(tm, "ann", sp)
	require.NoError(t, err)
	require.Equal(t, "Renamed", got.Name)
	require.Equal(t, Player{ID: "reds.1", Name: "Bruiser", ST: 8, AG: 2, MV: 2, AR: DefaultArmor}, got.Players[0])
	require.Equal(t, tm.Players[1], got.Players[1], "a dead player is not edited")
	require.Equal(t, "Reds 1", tm.Players[0].Name, "the input is unchanged")

	_, err = EditTeam(tm, "ben", sp)
	require.Equal(t, domain.EFORBIDDEN, domain.ErrorCode(err))
	locked, err := LockTeam(tm, "m1")
	require.NoError(t, err)
	_, err = EditTeam(locked, "ann", sp)
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err))
	bad := spec("Reds")
	bad.Players[3].ST = 9
	got, err = EditTeam(tm, "ann", bad)
	require.Equal(t, domain.EINVALID, domain.ErrorCode(err))
	require.Equal(t, tm, got, "refused: unchanged")
	bad.Players = bad.Players[:3]
	_, err = EditTeam(tm, "ann", bad)
	require.Equal(t, domain.EINVALID, domain.ErrorCode(err))
}

func TestRemoveDead(t *testing.T) {
	tm := team(t, "reds", ann)
	got, changed := RemoveDead(tm, []string{"reds.3"})
	require.True(t, changed)
	require.True(t, got.Players[2].Dead)
	require.False(t, tm.Players[2].Dead, "the input is unchanged")
	require.Equal(t, TeamSize-1, got.Alive())

	again, changed := RemoveDead(got, []string{"reds.3"})
	require.False(t, changed, "removing a removed player changes nothing")
	require.Equal(t, got, again)

	again, changed = RemoveDead(got, []string{"nobody", "blues.1"})
	require.False(t, changed, "unknown ids change nothing")
	require.Equal(t, got, again)

	both, changed := RemoveDead(got, []string{"reds.3", "reds.5", "reds.5"})
	require.True(t, changed)
	require.Equal(t, TeamSize-2, both.Alive())

	locked, err := LockTeam(tm, "m1")
	require.NoError(t, err)
	locked, changed = RemoveDead(locked, []string{"reds.1"})
	require.True(t, changed, "a locked team loses its dead too")
	require.Equal(t, "m1", locked.Match)
}

func TestRestartTeam(t *testing.T) {
	tm := team(t, "reds", ann)
	tm.Players[0].AR, tm.Players[1].AR = 5, 1 // 5 + 1 + 5×3 = 21
	require.NoError(t, ValidateTeam(tm))
	tm, _ = RemoveDead(tm, []string{"reds.1", "reds.4"})

	t.Run("rookies", func(t *testing.T) {
		got, err := RestartTeam(tm, "ann", nil)
		require.NoError(t, err)
		require.Equal(t, Player{ID: "reds.8", Name: "Rookie 8", ST: 4, AG: 4, MV: 4, AR: 5}, got.Players[0], "the dead player's armor")
		require.Equal(t, Player{ID: "reds.9", Name: "Rookie 9", ST: 4, AG: 4, MV: 4, AR: 3}, got.Players[3])
		require.Equal(t, tm.Players[1], got.Players[1], "survivors are kept")
		for _, p := range got.Players {
			require.NotContains(t, []string{"reds.1", "reds.4"}, p.ID, "the dead do not come back: new players take their slots (ruling 7)")
		}
		require.Equal(t, 10, got.NextPlayer)
		require.Equal(t, 1, got.Restarts)
		require.Equal(t, TeamSize, got.Alive())
		require.NoError(t, ValidateTeam(got))
		require.True(t, tm.Players[0].Dead, "the input is unchanged")
	})
	t.Run("chosen", func(t *testing.T) {
		got, err := RestartTeam(tm, "ann", []PlayerSpec{
			{Name: "Speedy", Image: "https://img.example/s.png", ST: 1, AG: 5, MV: 6, AR: 4},
			{Name: "Wall", ST: 8, AG: 2, MV: 2, AR: 4}, // 4 + 4 = 5 + 3: the armor budget holds
		})
		require.NoError(t, err)
		require.Equal(t, "Speedy", got.Players[0].Name)
		require.Equal(t, "reds.8", got.Players[0].ID)
		require.Equal(t, 4, got.Players[3].AR)
	})
	t.Run("chosen, armor broken", func(t *testing.T) {
		_, err := RestartTeam(tm, "ann", []PlayerSpec{{Name: "A", ST: 4, AG: 4, MV: 4, AR: 6}, {Name: "B", ST: 4, AG: 4, MV: 4}})
		require.Equal(t, domain.EINVALID, domain.ErrorCode(err))
	})
	t.Run("wrong count", func(t *testing.T) {
		_, err := RestartTeam(tm, "ann", []PlayerSpec{{Name: "A", ST: 4, AG: 4, MV: 4}})
		require.Equal(t, domain.EINVALID, domain.ErrorCode(err))
	})
	t.Run("not the coach", func(t *testing.T) {
		_, err := RestartTeam(tm, "ben", nil)
		require.Equal(t, domain.EFORBIDDEN, domain.ErrorCode(err))
	})
	t.Run("locked", func(t *testing.T) {
		locked, err := LockTeam(tm, "m1")
		require.NoError(t, err)
		_, err = RestartTeam(locked, "ann", nil)
		require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err))
	})
	t.Run("nobody dead", func(t *testing.T) {
		_, err := RestartTeam(team(t, "blues", ben), "ben", nil)
		require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err))
	})
}

func TestLockTeam(t *testing.T) {
	tm := team(t, "reds", ann)
	locked, err := LockTeam(tm, "m1")
	require.NoError(t, err)
	require.Equal(t, "m1", locked.Match)
	again, err := LockTeam(locked, "m1")
	require.NoError(t, err, "locking again for the same match is a no-op")
	require.Equal(t, locked, again)
	_, err = LockTeam(locked, "m2")
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err))
	_, err = LockTeam(tm, "")
	require.Equal(t, domain.EINVALID, domain.ErrorCode(err))

	same, changed := UnlockTeam(locked, "m2")
	require.False(t, changed, "another match cannot unlock it")
	require.Equal(t, locked, same)
	free, changed := UnlockTeam(locked, "m1")
	require.True(t, changed)
	require.Empty(t, free.Match)

	all := tm
	for i := range all.Players {
		all.Players[i].Dead = true
	}
	_, err = LockTeam(all, "m1")
	require.Equal(t, domain.ECONFLICT, domain.ErrorCode(err), "a team of dead players cannot play")
}
