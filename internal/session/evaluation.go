package session

import (
	"bufio"
	"fmt"
	"io"
	"maps"
	"os"

	"github.com/chimera-chess/chimera/engine"
	"github.com/chimera-chess/chimera/eval"
	"github.com/chimera-chess/chimera/nnue"
)

// The Evaluation option's choices.
const (
	// Documents is the documents' formula: material and mobility.
	Documents = "documents"
	// Tuned is the tuned evaluation: weights over the generic features,
	// learned per variant by chimera tune.
	Tuned = "tuned"
	// Network is a network's evaluation, trained per variant by chimera
	// train; a variant without one is played by the tuned evaluation.
	Network = "network"
)

// setEvaluation applies the Evaluation option.
func (s *Session) setEvaluation(v value) error {
	s.values.evaluation = v.text
	s.searcher.SetEvaluation(s.evaluation())
	return nil
}

// loadEvalFile reads a weights file or a network for the variant it
// names, checked against that variant now: a bad file is refused and the
// evaluation before is kept. An empty value forgets the files loaded.
func (s *Session) loadEvalFile(v value) error {
	if v.text == "" {
		s.evalFiles, s.networks = nil, nil
		s.searcher.SetEvaluation(s.evaluation())
		return nil
	}
	if f, err := os.Open(v.text); err == nil {
		// One open: a network file (nnue's magic first) is read from it,
		// a weights file by its own bounded reader.
		defer f.Close()
		r := bufio.NewReader(f)
		if head, err := r.Peek(len(nnue.FileMagic)); err == nil && string(head) == nnue.FileMagic {
			return s.loadNetwork(v.text, r)
		}
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

// loadNetwork reads the network file at path from r and keeps it for
// the variant it was trained for, checked against that variant as
// defined now.
func (s *Session) loadNetwork(path string, r io.Reader) error {
	n, err := nnue.Read(r)
	if err != nil {
		return fmt.Errorf("option EvalFile: %s: %w", path, err)
	}
	variant, err := s.cat.Lookup(n.Variant)
	if err != nil {
		return fmt.Errorf("option EvalFile: %s: a network for %w", path, err)
	}
	if err := n.Check(variant); err != nil {
		return fmt.Errorf("option EvalFile: %s: %w", path, err)
	}
	if s.networks == nil {
		s.networks = map[string]*nnue.Network{}
	}
	s.networks[n.Variant] = n
	note := ""
	if s.values.evaluation != Network {
		note = " (it plays when Evaluation is network)"
	}
	s.cfg.OnMessage(fmt.Sprintf("evaluation: a network for %s loaded from %s (%d hidden units)%s", n.Variant, path, n.Hidden, note))
	s.searcher.SetEvaluation(s.evaluation())
	return nil
}

// evaluation returns how the search evaluates each variant: the
// Config's Evaluator when it has one, else under the Evaluation and
// EvalFile options: nil for the documents' formula; for a network, the
// network EvalFile loaded for the variant, else the one shipped for it,
// else (said by a message) the tuned evaluation; for the tuned evaluation, the weights EvalFile
// loaded for the variant, else the weights shipped for it, else the
// documents' formula, said by a message. It runs on the search's goroutine when a variant is first searched, with the session's
// state copied now.
func (s *Session) evaluation() func(*engine.Variant) eval.Evaluator {
	if s.cfg.Evaluator != nil {
		return s.cfg.Evaluator
	}
	mode := s.values.evaluation
	if s.values.limitStrength {
		mode = Network // the strongest there is: a rating must not depend on the setting
	}
	if mode != Tuned && mode != Network {
		return nil
	}
	files := maps.Clone(s.evalFiles)
	useNetworks, networks := mode == Network, maps.Clone(s.networks)
	say := s.cfg.OnMessage
	return func(v *engine.Variant) eval.Evaluator {
		if useNetworks {
			if n, ok := networks[v.Name]; ok {
				e, err := eval.NewNetwork(v, n)
				if err == nil {
					return e
				}
				say(fmt.Sprintf("evaluation: the EvalFile network does not fit %s now: %v", v.Name, err))
			}
			if n, ok := eval.ShippedNetwork(v); ok {
				if e, err := eval.NewNetwork(v, n); err == nil {
					return e
				}
			}
			say(fmt.Sprintf("evaluation: no network for %s: the tuned evaluation plays it (chimera train makes one)", v.Name))
		}
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
