package stack

import (
	"fmt"
	"io"
)

// PrintHowTo tells a person at the terminal how to play the demo.
func (s *Stack) PrintHowTo(w io.Writer) {
	fmt.Fprintf(w, "\nMeeple local stack is up.\n")
	fmt.Fprintf(w, "  functions:  %s  (POST /Auth, /DashDice, /PartyBoard, /TileRace)\n", s.FunctionsURL)
	fmt.Fprintf(w, "  firestore:  %s  (project %s, rules from firestore.rules)\n", s.FirestoreHost, s.Project)
	fmt.Fprintf(w, "  triggers:   delivered by the Firestore emulator; tick every second\n")
	if s.secretNote != "" {
		fmt.Fprintf(w, "  note:       %s\n", s.secretNote)
	}
	d := s.Demo
	if d == nil {
		fmt.Fprintf(w, "\nPress Ctrl-C to stop.\n")
		return
	}
	u := s.FunctionsURL + "/DashDice"
	fmt.Fprintf(w, `
Demo: Alice (%s) created a Classic match %s (room %s) and Bob (%s) joined it.
Its seed is fixed ("meeple-demo-seed"), so it plays the same way every run.

  export ALICE=%s
  export BOB=%s

Bob calls odd or even to decide who starts:
  curl -s %s -H "Authorization: Bearer $BOB" -d '{"gameId":"%s","actionId":"c1","type":"call","call":"odd"}'
Whoever's turn it is rolls, and banks when they like:
  curl -s %s -H "Authorization: Bearer $ALICE" -d '{"gameId":"%s","actionId":"r1","type":"roll"}'
  curl -s %s -H "Authorization: Bearer $ALICE" -d '{"gameId":"%s","actionId":"b1","type":"bank"}'
(Use a new actionId for every action; repeating one returns the first reply.)

A Zero Hour room is open for anyone: sign in and join it with room code %s:
  curl -s %s/Auth -d '{"type":"guest","nickname":"You"}'
  curl -s %s -H "Authorization: Bearer <token>" -d '{"actionId":"j1","type":"join","roomCode":"%s"}'
Or find an opponent with quick match (two players, same mode):
  curl -s %s -H "Authorization: Bearer <token>" -d '{"actionId":"q1","type":"quickMatch","mode":"classic"}'

Party Board: Alice opened a Pokémon Gen 1 game %s (room %s) and Bob joined.
Others may join with the room code; Alice starts it, then everyone picks a starter:
  curl -s %s/PartyBoard -H "Authorization: Bearer $ALICE" -d '{"gameId":"%s","actionId":"s1","type":"start"}'
  curl -s %s/PartyBoard -H "Authorization: Bearer $BOB" -d '{"gameId":"%s","actionId":"p1","type":"starter","starter":"Squirtle"}'
The game document's state.await always says who must act next, and how.

Watch a match live from a web client (Firebase JS SDK):
  connectFirestoreEmulator(db, "127.0.0.1", %s, { mockUserToken: "<firebaseToken from /Auth>" })
  onSnapshot(doc(db, "games", "%s"), snap => console.log(snap.data()))
Alice's Firebase token: %s
`, d.AliceID, d.MatchID, d.RoomCode, d.BobID, d.AliceToken, d.BobToken,
		u, d.MatchID, u, d.MatchID, u, d.MatchID,
		d.OpenRoomCode, s.FunctionsURL, u, d.OpenRoomCode, u,
		d.BoardGameID, d.BoardRoomCode, s.FunctionsURL, d.BoardGameID, s.FunctionsURL, d.BoardGameID,
		port(s.FirestoreHost), d.MatchID, d.AliceFirebase)
	if d.Race != nil {
		s.printRace(w, d.Race)
	}
	fmt.Fprintf(w, "\nPress Ctrl-C to stop.\n")
}

func port(hostport string) string {
	for i := len(hostport) - 1; i >= 0; i-- {
		if hostport[i] == ':' {
			return hostport[i+1:]
		}
	}
	return hostport
}
