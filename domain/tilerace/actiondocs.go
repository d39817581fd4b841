package tilerace

import (
	"reflect"

	"github.com/meeple-games/meeple/domain"
)

var whoDoc = map[Who]string{
	WhoTeam:   "the team (team token), or an admin naming the team",
	WhoAdmin:  "an admin of the race (regular or master)",
	WhoMaster: "the race's master admin",
}

// ActionDocs implements domain.ActionDocer: the Specs, each with the request
// type DecodeRequest decodes it into.
func (g RaceGame) ActionDocs() []domain.ActionDoc {
	password := []domain.Field{domain.PlatformField("password", "")}
	out := []domain.ActionDoc{{Type: domain.ActionCreate, Payload: raceCreate{}, Who: "any signed-in player or guest (becomes the master admin)",
		Summary: "make a race in setup; replies with the master admin's session", Platform: password}}
	for _, typ := range ActionTypes() {
		req, _ := newRequest(typ)
		d := domain.ActionDoc{Type: typ, Payload: reflect.ValueOf(req).Elem().Interface(), Who: whoDoc[Specs[typ].Who], Summary: Specs[typ].Summary}
		if g.PasswordMin(typ) > 0 {
			d.Platform = password
		}
		out = append(out, d)
	}
	return out
}
