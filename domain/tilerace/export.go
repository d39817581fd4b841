package tilerace

import (
	"bytes"
	"encoding/csv"
	"strconv"
	"strings"

	"github.com/meeple-games/meeple/domain"
)

// ExportRequest is the payload of "exportTasks": what to export, "pools"
// (every pool task, used or not) or "board" (the 56 tiles' tasks, in order).
type ExportRequest struct {
	What string `json:"what" field:"enum=pools|board"`
}

// ExportTasks writes tasks as a task file in the import format (ParseTasks
// reads it back to the same tasks), for admins to keep, share or edit in a
// spreadsheet. Text from users is written as given, except that a cell a
// spreadsheet would run as a formula (starting with =, +, -, @, a tab or a
// carriage return) starts with an apostrophe, which spreadsheets show as
// text and ParseTasks takes off again.
//
// Errors: EFORBIDDEN (not an admin), EINVALID (what).
func ExportTasks(c Ctx, g Game, p Pools, b Board, req ExportRequest) (string, error) {
	if err := Authorize(g, c.Actor, ActionExportTasks, ""); err != nil {
		return "", err
	}
	var tasks []Task
	switch req.What {
	case "pools", "":
		for _, d := range Difficulties {
			for _, t := range *p.Pool(d) {
				tasks = append(tasks, t.Task)
			}
		}
	case "board":
		for _, t := range b.Tiles {
			if !t.Empty() {
				tasks = append(tasks, t.Task)
			}
		}
	default:
		return "", domain.Errorf(domain.EINVALID, `what must be "pools" or "board", not %s`, domain.Quote(req.What))
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	_ = w.Write([]string{"label", "difficulty", "max", "min", "instructions", "image URL", "start proof", "group"})
	yesNo := func(b bool) string {
		if b {
			return "yes"
		}
		return "no"
	}
	for _, t := range tasks {
		_ = w.Write([]string{SafeCell(t.Label), t.Difficulty.String(), strconv.Itoa(t.Max), strconv.Itoa(t.Min),
			SafeCell(t.Instructions), SafeCell(t.Image), yesNo(t.StartProof), yesNo(t.Group)})
	}
	w.Flush()
	return buf.String(), nil
}

// formulaStarts are what makes a spreadsheet run a cell as a formula.
const formulaStarts = "=+-@\t\r"

// SafeCell neutralises a cell a spreadsheet would run as a formula (CSV
// injection): it gets a leading apostrophe. Every CSV or TSV the project
// writes passes user text through it.
func SafeCell(s string) string {
	if s != "" && strings.ContainsRune(formulaStarts, rune(s[0])) {
		return "'" + s
	}
	return s
}

// unsafeCell takes off the apostrophe SafeCell adds, so an exported file
// imports back to the same text.
func unsafeCell(s string) string {
	if len(s) >= 2 && s[0] == '\'' && strings.ContainsRune(formulaStarts, rune(s[1])) {
		return s[1:]
	}
	return s
}
