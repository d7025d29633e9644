// Command teapeer is the peer canopy's start-up is measured against
// (e2e/perf_test.go, BENCHMARKS.md "Start-up"): a minimal Bubble Tea v2
// program built from the same module, so with the same versions of Bubble
// Tea and what it brings in. With --version it prints a version and
// exits, as canopy --version does; otherwise it shows one frame in the
// alternate screen, as canopy does, until q or ctrl+c.
package main

import (
	"fmt"
	"os"

	tea "charm.land/bubbletea/v2"
)

// frame is the one frame the peer shows.
type frame struct{}

func (frame) Init() tea.Cmd { return nil }

func (f frame) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	if k, ok := msg.(tea.KeyPressMsg); ok && (k.String() == "q" || k.String() == "ctrl+c") {
		return f, tea.Quit
	}
	return f, nil
}

func (frame) View() tea.View {
	v := tea.NewView("teapeer: the first frame\n\npress q to quit")
	v.AltScreen = true
	return v
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == "--version" {
		fmt.Println("teapeer 1")
		return
	}
	if _, err := tea.NewProgram(frame{}).Run(); err != nil {
		fmt.Fprintln(os.Stderr, "teapeer:", err)
		os.Exit(1)
	}
}
