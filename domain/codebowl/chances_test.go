package codebowl

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

func TestDodgeChance(t *testing.T) {
	for _, c := range []struct{ ag, enemy, want int }{
		{3, 3, 60}, // equal: 60 % (ruling 5)
		{4, 3, 70},
		{6, 3, 90},
		{7, 3, 90}, // clamped at 90
		{10, 1, 90},
		{2, 3, 50},
		{0, 3, 30},
		{1, 6, 10}, // 60 - 50 = 10
		{1, 9, 10}, // clamped at 10
		{5, 5, 60},
	} {
		t.Run(fmt.Sprintf("ag%d-vs-%d", c.ag, c.enemy), func(t *testing.T) {
			if got := DodgeChance(c.ag, c.enemy); got != c.want {
				t.Errorf("DodgeChance(%d, %d) = %d, want %d", c.ag, c.enemy, got, c.want)
			}
		})
	}
}

func TestAttackChances(t *testing.T) {
	for _, c := range []struct {
		adv          int
		kd, ne, down int
	}{
		{0, 50, 25, 25}, // equal ST (ruling 6)
		{1, 60, 20, 20},
		{2, 70, 15, 15},
		{4, 90, 5, 5},
		{5, 100, 0, 0},
		{6, 100, 0, 0}, // clamped: nothing below 0
		{12, 100, 0, 0},
		{-1, 40, 30, 30},
		{-3, 20, 40, 40},
		{-5, 0, 50, 50},
		{-9, 0, 50, 50},
	} {
		t.Run(fmt.Sprintf("adv%+d", c.adv), func(t *testing.T) {
			got := AttackChances(c.adv)
			want := AttackOdds{Advantage: c.adv, Knockdown: c.kd, NoEffect: c.ne, AttackerDown: c.down}
			if got != want {
				t.Errorf("AttackChances(%d) = %+v, want %+v", c.adv, got, want)
			}
		})
	}
	for a := -20; a <= 20; a++ {
		o := AttackChances(a)
		require.Equal(t, 100, o.Knockdown+o.NoEffect+o.AttackerDown, "advantage %d sums to 100", a)
		require.GreaterOrEqual(t, min(o.Knockdown, o.NoEffect, o.AttackerDown), 0, "advantage %d", a)
	}
}

func TestAttackOutcome(t *testing.T) {
	o := AttackChances(0) // 50 / 25 / 25
	for _, c := range []struct {
		roll int
		want string
	}{
		{1, AttackKnockdown}, {50, AttackKnockdown}, {51, AttackNoEffect}, {75, AttackNoEffect},
		{76, AttackAttackerDown}, {100, AttackAttackerDown},
	} {
		if got := o.Outcome(c.roll); got != c.want {
			t.Errorf("roll %d: got %s, want %s", c.roll, got, c.want)
		}
	}
	require.Equal(t, AttackKnockdown, AttackChances(5).Outcome(100), "100 % knocks down on any roll")
	require.Equal(t, AttackNoEffect, AttackChances(-5).Outcome(1), "0 % knockdown: a 1 is no effect")
}

func TestAssistsAndAdvantage(t *testing.T) {
	for _, c := range []struct {
		name      string
		att, tgt  int
		allySTs   []int
		wantPts   int // assist points after flooring
		wantAdv   int
		wantOdds3 [3]int
	}{
		{"no assist", 4, 4, nil, 0, 0, [3]int{50, 25, 25}},
		{"equal ally +1", 4, 4, []int{4}, 1, 1, [3]int{60, 20, 20}},
		{"stronger ally +2", 4, 4, []int{6}, 2, 2, [3]int{70, 15, 15}},
		{"weaker ally +0.5 floors to 0", 4, 4, []int{2}, 0, 0, [3]int{50, 25, 25}},
		{"two weaker allies +1", 4, 4, []int{2, 3}, 1, 1, [3]int{60, 20, 20}},
		{"three weaker allies +1.5 floors to 1", 4, 4, []int{1, 2, 3}, 1, 1, [3]int{60, 20, 20}},
		{"weaker + equal = 1.5 floors to 1", 4, 4, []int{3, 4}, 1, 1, [3]int{60, 20, 20}},
		{"mixed 2 + 1 + 0.5 = 3.5 → 3", 4, 4, []int{5, 4, 1}, 3, 3, [3]int{80, 10, 10}},
		{"weaker attacker with help", 3, 5, []int{6}, 2, 0, [3]int{50, 25, 25}},
		{"stronger attacker", 7, 4, nil, 0, 3, [3]int{80, 10, 10}},
		{"much weaker attacker", 1, 8, []int{2}, 0, -7, [3]int{0, 50, 50}},
	} {
		t.Run(c.name, func(t *testing.T) {
			halves := 0
			for _, st := range c.allySTs {
				halves += AssistHalves(st, c.tgt)
			}
			if got := halves / 2; got != c.wantPts {
				t.Errorf("assist points = %d, want %d", got, c.wantPts)
			}
			adv := Advantage(c.att, c.tgt, halves)
			if adv != c.wantAdv {
				t.Errorf("Advantage = %d, want %d", adv, c.wantAdv)
			}
			o := AttackChances(adv)
			if got := [3]int{o.Knockdown, o.NoEffect, o.AttackerDown}; got != c.wantOdds3 {
				t.Errorf("odds = %v, want %v", got, c.wantOdds3)
			}
		})
	}
}

func TestInjuryChance(t *testing.T) {
	for _, c := range []struct{ st, want int }{
		{0, 10}, {1, 15}, {4, 30}, {6, 40}, {10, 60}, {18, 100}, {30, 100},
	} {
		if got := InjuryChance(c.st); got != c.want {
			t.Errorf("InjuryChance(%d) = %d, want %d", c.st, got, c.want)
		}
	}
}

func TestArmorInjuryChance(t *testing.T) {
	for _, c := range []struct{ st, ar, want int }{
		{5, 5, 5},   // equal: 5 % (ruling 7, the seed's example)
		{6, 5, 10},  // +5 per point above
		{10, 1, 50}, // the most a legal team can do
		{4, 5, 0},   // below armor: no injury
		{1, 6, 0},
		{3, 3, 5},
		{40, 1, 100}, // clamped
	} {
		if got := ArmorInjuryChance(c.st, c.ar); got != c.want {
			t.Errorf("ArmorInjuryChance(%d, %d) = %d, want %d", c.st, c.ar, got, c.want)
		}
	}
}

func TestPickupChance(t *testing.T) {
	for _, c := range []struct {
		ag   int
		near bool
		want int
	}{
		{3, false, 60}, // ruling 8
		{4, false, 70},
		{6, false, 90},
		{8, false, 90}, // clamped at 90
		{2, false, 50},
		{1, false, 40},
		{0, false, 30},
		{-2, false, 30}, // clamped at 30
		{3, true, 50},   // −10 with an enemy next to the ball
		{6, true, 80},
		{9, true, 80}, // the clamp first, then −10
		{1, true, 30},
		{0, true, 20},
	} {
		t.Run(fmt.Sprintf("ag%d-near%v", c.ag, c.near), func(t *testing.T) {
			if got := PickupChance(c.ag, c.near); got != c.want {
				t.Errorf("PickupChance(%d, %v) = %d, want %d", c.ag, c.near, got, c.want)
			}
		})
	}
}

func TestSucceeds(t *testing.T) {
	require.True(t, Succeeds(60, 60))
	require.False(t, Succeeds(61, 60))
	require.False(t, Succeeds(1, 0))
	require.True(t, Succeeds(100, 100))
}
