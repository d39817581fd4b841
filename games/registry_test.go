package games

import (
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/meeple-games/meeple/domain"
	"github.com/meeple-games/meeple/functions"
	"github.com/meeple-games/meeple/store"
	"github.com/meeple-games/meeple/triggers"
)

// TestDeployedNamesAreTheRegistry: the HTTP functions served (Routes), the
// names deployed (Names) and those docs/deploy.md deploys are the registry's.
func TestDeployedNamesAreTheRegistry(t *testing.T) {
	reg := All()
	names := functions.Names(reg)
	want := []string{functions.AuthFunction}
	for _, e := range reg {
		want = append(want, e.Function)
	}
	require.Equal(t, want, names)

	srv := &functions.Server{Store: &store.Store{Games: store.NewGames(reg)}}
	var routes []string
	for name := range srv.Routes() {
		routes = append(routes, name)
	}
	sort.Strings(routes)
	sorted := slices.Sorted(slices.Values(names))
	require.Equal(t, sorted, routes, "every deployed name is served, and nothing else")

	doc, err := os.ReadFile("../docs/deploy.md")
	require.NoError(t, err)
	loop := regexp.MustCompile(`for NAME in ([A-Za-z ]+); do`).FindStringSubmatch(string(doc))
	require.NotNil(t, loop, "docs/deploy.md deploys the HTTP functions in a loop")
	require.Equal(t, names, strings.Fields(loop[1]), "docs/deploy.md deploys exactly the registry's functions")
	var table []string
	for _, m := range regexp.MustCompile("(?m)^\\| `([A-Za-z]+)` \\|").FindAllStringSubmatch(string(doc), -1) {
		table = append(table, m[1])
	}
	wantTable := append([]string{}, names...)
	for name := range triggers.Functions() {
		wantTable = append(wantTable, name)
	}
	require.ElementsMatch(t, wantTable, table, "docs/deploy.md's table lists every function")

	// docs/deploy.md deploys no GameEvent trigger: no game registers an
	// effect handler, so no action leaves it work (the tick's sweep takes
	// the rare pending record). A game that registers one needs it
	// deployed: change docs/deploy.md, section 6, with it.
	_, needed := triggers.DocumentTriggersFor(reg)[triggers.GameEventFunction]
	require.False(t, needed, "a game registers an effect handler: docs/deploy.md must deploy GameEvent")
	require.Contains(t, string(doc), "needs no `GameEvent`", "docs/deploy.md says whether GameEvent is deployed")
}

// TestRegistryEntries: every entry is complete and its kinds, functions and
// sign-in types are distinct.
func TestRegistryEntries(t *testing.T) {
	kinds, fns, signIns := map[string]bool{}, map[string]bool{}, map[string]bool{"guest": true, "register": true, "login": true}
	for _, e := range All() {
		k := e.Kind()
		require.NotEmpty(t, k)
		require.False(t, kinds[k], "kind %s twice", k)
		kinds[k] = true
		require.Regexp(t, `^[A-Z][A-Za-z]+$`, e.Function)
		require.False(t, fns[e.Function], "function %s twice", e.Function)
		fns[e.Function] = true
		require.NotNil(t, e.Demo, "%s has a demo", k)
		require.NotNil(t, e.Load, "%s has a load scenario", k)
		for _, si := range e.SignIns {
			require.False(t, signIns[si.Type], "sign-in %s twice", si.Type)
			signIns[si.Type] = true
		}
		slots := map[string]bool{domain.SlotGame: true}
		for _, s := range e.Game.Slots() {
			require.False(t, slots[s.Name], "%s: slot %s twice", k, s.Name)
			slots[s.Name] = true
			require.NotEmpty(t, s.Access, "%s: slot %s says who reads it", k, s.Name)
			require.NotNil(t, s.Type, "%s: slot %s has a type", k, s.Name)
			if s.Name == domain.SlotOutbox {
				require.Equal(t, domain.OutboxPath, s.Path, "%s: the outbox is where the Outbox trigger watches", k)
				require.Equal(t, domain.ReadNever, s.Access, "%s: the outbox is server-only", k)
			}
		}
		require.Equal(t, e.Outbox != nil, slots[domain.SlotOutbox], "%s: a game with an Outbox declares the outbox slot, and only then", k)
	}
}

// TestEveryActionIsDocumented: every action type a game lists appears in its
// doc (docs/{kind}.md, as `type`) or in docs/api.md, and the platform's own
// actions in docs/api.md, so a new action cannot go undocumented.
func TestEveryActionIsDocumented(t *testing.T) {
	api, err := os.ReadFile("../docs/api.md")
	require.NoError(t, err)
	for _, a := range []string{domain.ActionCreate, domain.ActionJoin, domain.ActionLegal, domain.ActionAdvance, domain.ActionQuickMatch, domain.ActionLeaveQueue} {
		require.Contains(t, string(api), "`"+a+"`", "docs/api.md documents the platform action %s", a)
	}
	for _, e := range All() {
		at, ok := e.Game.(domain.ActionTyper)
		require.True(t, ok, "%s lists its action types (domain.ActionTyper)", e.Kind())
		doc, err := os.ReadFile("../docs/" + e.Kind() + ".md")
		require.NoError(t, err, "%s has docs/%s.md", e.Kind(), e.Kind())
		for _, typ := range at.ActionTypes() {
			quoted := "`" + typ + "`"
			ok := strings.Contains(string(doc), quoted) || strings.Contains(string(doc), `"`+typ+`"`) || strings.Contains(string(api), quoted)
			require.True(t, ok, "%s's action %s is documented in docs/%s.md or docs/api.md", e.Kind(), typ, e.Kind())
		}
	}
}
