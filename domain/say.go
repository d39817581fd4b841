package domain

// Sayer is implemented by rules that say their events in words: one
// sentence per event, with the players' display names, read from s, the
// state right after the step that made the event. Each game says its own
// events in one place (domain/<game>/say.go), so the web client, the
// Discord messages and any later client use the same words. An empty
// string leaves the event without text (a client falls back to its type).
type Sayer[S any] interface {
	Say(s S, e Event) string
}

// SayAll fills the Text of each event of a step that has none, when rules
// is a Sayer. Single calls it once per step; a game with its own Run calls
// it (or its own Say) itself.
func SayAll[S any](rules any, s S, events []Event) {
	sayer, ok := rules.(Sayer[S])
	if !ok {
		return
	}
	for i := range events {
		if events[i].Text == "" {
			events[i].Text = sayer.Say(s, events[i])
		}
	}
}

// JoinNames joins names for a sentence: "Ann", "Ann and Ben", "Ann, Ben
// and Cy".
func JoinNames(names []string) string {
	switch len(names) {
	case 0:
		return ""
	case 1:
		return names[0]
	}
	out := names[0]
	for _, n := range names[1 : len(names)-1] {
		out += ", " + n
	}
	return out + " and " + names[len(names)-1]
}
