package triggers_test

import (
	"os"
	"testing"

	"github.com/meeple-games/meeple/store/storetest"
)

func TestMain(m *testing.M) { os.Exit(storetest.Main(m)) }
