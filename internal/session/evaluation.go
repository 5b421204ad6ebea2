package session

import (
	"fmt"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/eval"
)

// The Evaluation option's choices.
const (
	// Documents is the documents' formula: material and mobility.
	Documents = "documents"
	// Tuned is the tuned evaluation: weights over the generic features,
	// learned per variant by chimera tune.
	Tuned = "tuned"
)

// setEvaluation applies the Evaluation option.
func (s *Session) setEvaluation(v value) error {
	s.values.evaluation = v.text
	s.searcher.SetEvaluation(s.evaluation())
	return nil
}

// loadEvalFile reads a weights file for the variant it names, checked
// against that variant now: a bad file is refused and the weights before
// are kept. An empty value forgets the files loaded.
func (s *Session) loadEvalFile(v value) error {
	if v.text == "" {
		s.evalFiles = nil
		s.searcher.SetEvaluation(s.evaluation())
		return nil
	}
	data, err := eval.ReadWeightsFile(v.text)
	if err != nil {
		return fmt.Errorf("option EvalFile: %w", err)
	}
	name, err := eval.WeightsVariant(data)
	if err != nil {
		return fmt.Errorf("option EvalFile: %s: %w", v.text, err)
	}
	variant, err := s.cat.Lookup(name)
	if err != nil {
		return fmt.Errorf("option EvalFile: %s: weights for %w", v.text, err)
	}
	if _, err := eval.ParseWeights(variant, data); err != nil {
		return fmt.Errorf("option EvalFile: %s: %w", v.text, err)
	}
	if s.evalFiles == nil {
		s.evalFiles = map[string][]byte{}
	}
	s.evalFiles[name] = data
	note := ""
	if s.values.evaluation != Tuned {
		note = " (they play when Evaluation is tuned)"
	}
	s.cfg.OnMessage(fmt.Sprintf("evaluation: weights for %s loaded from %s%s", name, v.text, note))
	s.searcher.SetEvaluation(s.evaluation())
	return nil
}

// evaluation returns how the search evaluates each variant: the
// Config's Evaluator when it has one, else under the Evaluation and
// EvalFile options: nil for the documents' formula; for
// the tuned evaluation, the weights EvalFile loaded for the variant, else
// the weights shipped for it, else the documents' formula, said by a
// message. It runs on the search's goroutine when a variant is first searched, with the session's
// state copied now.
func (s *Session) evaluation() func(*engine.Variant) eval.Evaluator {
	if s.cfg.Evaluator != nil {
		return s.cfg.Evaluator
	}
	if s.values.evaluation != Tuned {
		return nil
	}
	files := make(map[string][]byte, len(s.evalFiles))
	for k, v := range s.evalFiles {
		files[k] = v
	}
	say := s.cfg.OnMessage
	return func(v *engine.Variant) eval.Evaluator {
		if data, ok := files[v.Name]; ok {
			w, err := eval.ParseWeights(v, data)
			if err == nil {
				return eval.NewTuned(w)
			}
			// The variant was redefined since the file was loaded.
			say(fmt.Sprintf("evaluation: the EvalFile weights do not fit %s now: %v", v.Name, err))
		}
		if w, ok := eval.Shipped(v); ok {
			return eval.NewTuned(w)
		}
		say(fmt.Sprintf("evaluation: no tuned weights for %s: the documents' evaluation plays it (chimera tune --variant %s makes them)", v.Name, v.Name))
		return eval.NewDocuments(v)
	}
}
