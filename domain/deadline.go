package domain

import "time"

// Due is the check every Rules.Expire starts with: the game (what — "the
// match", "the game") is not over, has a deadline and it has passed by now.
//
// Errors: ECONFLICT.
func Due(what string, over bool, deadline, now time.Time) error {
	switch {
	case over:
		return Errorf(ECONFLICT, "%s is over", what)
	case deadline.IsZero():
		return Errorf(ECONFLICT, "%s has no deadline", what)
	case now.Before(deadline):
		return Errorf(ECONFLICT, "the deadline %s has not passed", deadline.Format(time.RFC3339))
	}
	return nil
}
