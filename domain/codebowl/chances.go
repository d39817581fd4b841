package codebowl

// Every chance is a whole percentage; an attempt rolls a d100 and succeeds when
// the die is at most the chance (Succeeds). Each formula is one function so
// that it can be table-tested on its own.

// Succeeds reports whether a d100 roll makes an attempt with chance percent.
func Succeeds(roll, chance int) bool { return roll <= chance }

func clamp(v, lo, hi int) int { return max(lo, min(hi, v)) }

// DodgeChance is the chance (ruling 5) that a player with AG agility leaves a
// square in a tackle zone safely, where enemyAG is the highest AG among the
// standing enemies adjacent to that square:
//
//	clamp(60 + 10 × (AG − enemyAG), 10, 90)
func DodgeChance(ag, enemyAG int) int { return clamp(60+10*(ag-enemyAG), 10, 90) }

// AttackOdds are the three outcomes of an attack, in percent; they always
// sum to 100. A d100 roll r is a knockdown when r ≤ Knockdown, no effect when
// r ≤ Knockdown + NoEffect, otherwise the attacker goes down.
type AttackOdds struct {
	Advantage    int `json:"advantage"` // the net advantage the odds were computed from
	Knockdown    int `json:"knockdown"`
	NoEffect     int `json:"noEffect"`
	AttackerDown int `json:"attackerDown"`
}

// MaxAdvantage is where the attack odds stop moving: at ±5 one of the
// outcomes has reached 0 %.
const MaxAdvantage = 5

// AttackChances returns the odds of an attack with net advantage a (ruling 6):
// 50 / 25 / 25 at 0; each point +10 / −5 / −5. A negative advantage runs the
// same lines the other way (−10 / +5 / +5 per point). The lines hit 0 % at
// ±5, so a is clamped to −5…+5: +5 and more is 100 / 0 / 0, −5 and less is
// 0 / 50 / 50, and the three always sum to 100.
func AttackChances(a int) AttackOdds {
	c := clamp(a, -MaxAdvantage, MaxAdvantage)
	return AttackOdds{Advantage: a, Knockdown: 50 + 10*c, NoEffect: 25 - 5*c, AttackerDown: 25 - 5*c}
}

// Attack outcomes (AttackedData.Result).
const (
	AttackKnockdown    = "knockdown"
	AttackNoEffect     = "noEffect"
	AttackAttackerDown = "attackerDown"
)

// Outcome returns what a d100 roll does under o.
func (o AttackOdds) Outcome(roll int) string {
	switch {
	case roll <= o.Knockdown:
		return AttackKnockdown
	case roll <= o.Knockdown+o.NoEffect:
		return AttackNoEffect
	}
	return AttackAttackerDown
}

// AssistHalves is what one assisting ally adds to an attack (ruling 6), in
// half points: 2 (one point) when its ST equals the target's, 4 (two points)
// when higher, 1 (half a point) when lower.
func AssistHalves(allyST, targetST int) int {
	switch {
	case allyST > targetST:
		return 4
	case allyST < targetST:
		return 1
	}
	return 2
}

// Advantage is an attack's net advantage: the attacker's ST minus the
// target's, plus the assists' total floored to whole points (halves / 2,
// never negative).
func Advantage(attackerST, targetST, assistHalves int) int {
	return attackerST - targetST + assistHalves/2
}

// InjuryChance is the chance (ruling 7, basic rules) that a knocked-down
// player is injured, and so dead, when knocked down by a player of strength
// st: 10 + 5 × st, clamped to 0…100.
func InjuryChance(st int) int { return clamp(10+5*st, 0, 100) }

// ArmorInjuryChance is the chance under the advanced armor rule (ruling 7):
// 5 % when the attacker's ST equals the victim's AR, +5 % per point above,
// and 0 when ST is below AR (armor stops the blow), at most 100.
func ArmorInjuryChance(st, ar int) int {
	if st < ar {
		return 0
	}
	return clamp(5+5*(st-ar), 0, 100)
}

// PickupChance is the chance (ruling 8) that a player with AG agility picks
// up or catches the ball: 60 % at AG 3, ±10 % per point, clamped to 30…90,
// then −10 when any standing enemy of the player is adjacent to the ball
// (so 20…90 in all).
func PickupChance(ag int, enemyAdjacent bool) int {
	c := clamp(60+10*(ag-3), 30, 90)
	if enemyAdjacent {
		c -= 10
	}
	return c
}
