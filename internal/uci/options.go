package uci

import (
	"fmt"
	"strings"

	"github.com/chimera-chess/chimera/internal/session"
)

// optionLine declares one option of the session's table in the uci answer.
func optionLine(o session.Option) string {
	switch o.Kind {
	case session.Spin:
		return fmt.Sprintf("option name %s type spin default %s min %d max %d", o.Name, o.Default, o.Min, o.Max)
	case session.Check:
		return fmt.Sprintf("option name %s type check default %s", o.Name, o.Default)
	case session.Combo:
		return fmt.Sprintf("option name %s type combo default %s var %s", o.Name, o.Default, strings.Join(o.Choices, " var "))
	case session.Button:
		return fmt.Sprintf("option name %s type button", o.Name)
	}
	def := o.Default
	if def == "" {
		def = "<empty>"
	}
	return fmt.Sprintf("option name %s type string default %s", o.Name, def)
}

// setOption handles "setoption name NAME [value VALUE]"; names may hold
// spaces and are matched without regard to case.
func (s *Server) setOption(args []string) {
	if len(args) < 2 || args[0] != "name" {
		s.errorf("setoption: want setoption name NAME [value VALUE]")
		return
	}
	nameEnd := len(args)
	for i, a := range args {
		if a == "value" {
			nameEnd = i
			break
		}
	}
	name := strings.Join(args[1:nameEnd], " ")
	value := ""
	if nameEnd < len(args) {
		value = strings.Join(args[nameEnd+1:], " ")
	}
	if err := s.sess.SetOption(name, value); err != nil {
		s.errorf("%v", err)
	}
}
