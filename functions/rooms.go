package functions

import "strings"

// normalizeRoomCode lets people type a code in any case and with spaces.
func normalizeRoomCode(code string) string {
	return strings.ToUpper(strings.Join(strings.Fields(code), ""))
}
