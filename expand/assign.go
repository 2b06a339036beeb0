package expand

// expandAssign assigns name as ${name:=word} and ${name=word} do, in the
// shell that expands the word: a shell variable, never the environment,
// so a program sees nothing it was not judged with. An exported name
// (or one exported while unset) is refused: bash would change what every
// later program gets. In a plan the value holds for the rest of the
// segment and is known only at run time after it.
func (s *Shell) expandAssign(name, value string) error {
	if _, ok := s.names().Get(s.Env, name); ok || s.declared(name) {
		return unsupportedf("%s is exported, so assigning it in ${…} would change what every later program gets; set it first with %s=value", name, name)
	}
	if !s.varsOwned {
		old := s.Vars
		s.Vars = make(map[string]string, len(old)+1)
		for k, v := range old {
			s.Vars[k] = v
		}
		s.varsOwned = true
	}
	s.Assign(name, value)
	s.assigned = true
	s.markUnknown(name, true)
	return nil
}

// Assigned reports whether an expansion assigned a variable (${X:=w}):
// the runner keeps the shell's variables then.
func (s *Shell) Assigned() bool { return s.assigned }
