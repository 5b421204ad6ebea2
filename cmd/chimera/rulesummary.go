package main

import (
	"fmt"
	"strings"

	"github.com/chimera-chess/chimera/engine"
)

// ruleSummary describes, one line each, the rules of the variant that a
// player needs to know beyond how the pieces move: the "Rules:" part of
// chimera variants show.
func ruleSummary(v *engine.Variant) []string {
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	var royal []string
	for _, pt := range v.Pieces {
		if pt.Royal {
			royal = append(royal, string(pt.Letter))
		}
	}
	if len(royal) == 0 {
		add("no royal pieces: no check")
	} else {
		add("royal: %s", strings.Join(royal, " "))
	}
	if v.RoyalRule == engine.LeftmostRoyal {
		add("only the royal piece nearest the a-file is royal")
	}
	if len(v.PromotionTypes) > 0 {
		var to []string
		for _, l := range v.PromotionTypes {
			to = append(to, string(l))
		}
		how := "must promote"
		switch {
		case v.SittuyinPromotion:
			how = "promote by a move of their own, in place or a step away,"
		case v.OptionalPromotion:
			how = "may promote (must on the last rank)"
		}
		add("pawns %s to %s", how, strings.Join(to, " "))
	}
	for _, cr := range v.Castling {
		if v.Chess960 {
			add("castling %s %c: king to %v, rook to %v, from their start files (Chess960)", cr.Colour, cr.Letter, cr.KingTo, cr.RookTo)
			continue
		}
		add("castling %s %c: king %v-%v, rook %v-%v", cr.Colour, cr.Letter, cr.KingFrom, cr.KingTo, cr.RookFrom, cr.RookTo)
	}
	add("checkmate: %s; stalemate: %s for the side to move", v.CheckmateValue.Outcome(engine.Loss), v.StalemateValue.Outcome(engine.Draw))
	if v.ExtinctionValue != engine.NoValue {
		add("extinction of any of %q: %s", v.ExtinctionTypes, v.ExtinctionValue.Outcome(engine.Loss))
	}
	if v.BareKingValue != engine.NoValue {
		add("a bare king: %s (one more move first: %v)", v.BareKingValue.Outcome(engine.Loss), v.BareKingMove)
	}
	if v.FlagPiece != 0 {
		add("%c reaching its flag squares wins (Black may equalise: %v)", v.FlagPiece, v.FlagMove)
	}
	if v.CheckCounting > 0 {
		add("the %d. check wins", v.CheckCounting)
	}
	if v.NoChecks {
		add("moves that give check are illegal")
	}
	if v.MustCapture {
		add("captures are compulsory")
	}
	if v.BlastOnCapture {
		add("captures explode: the capturer and non-pawns around are removed; kings cannot capture")
	}
	if v.Missile != 0 {
		add("missile %c: after any non-pawn capture it may be launched (from*to) at a 3x3 area", v.Missile)
	}
	out = append(out, regionSummary(v)...)
	for _, r := range []struct {
		on   bool
		text string
	}{
		{v.ExtinctionCount > 0, fmt.Sprintf("extinction counts a side left with %d or fewer", v.ExtinctionCount)},
		{v.ExtinctionOpponentCount > 0, fmt.Sprintf("extinction only while the other side holds %d", v.ExtinctionOpponentCount)},
		{v.FlagSurvive, "the flag piece must stand on its squares through the reply"},
		{v.StalematePieceCount, "a stalemate goes to the side with fewer pieces"},
		{len(v.ShatarShak) > 0, "a mate by knights alone loses; a mate without a check by " + string(v.ShatarShak) + " before it draws"},
		{v.KingStaysInCheck, "a king in check may only take a lone checker"},
		{v.MandatoryPiecePromotion, "pieces must promote (or demote) when they can"},
		{v.PieceDemotion, "promoted pieces demote (-) when they move"},
		{v.PiecePromotionOnCapture, "pieces promote and demote only when capturing"},
		{v.DropPromoted, "pieces in hand may be dropped promoted (+P@c3)"},
		{v.DropLoop, "captured promoted pieces go to hand as they stand"},
		{v.TwoBoards, "hands are also filled from a partner's board"},
		{v.MustDrop, "pieces in hand must be dropped first"},
		{v.DropBishopsOnBothColours, "bishops are dropped on both colours"},
		{v.CastlingDroppedPiece, "king and rook dropped on their squares may castle"},
		{v.RookDropsOnFirstRank, "rooks are dropped on the first rank"},
		{v.CambodianMoves, "the unmoved king may leap like a knight forward; the unmoved met may jump two squares ahead"},
	} {
		if r.on {
			add("%s", r.text)
		}
	}
	if v.MoveRule > 0 {
		add("%d-move rule", v.MoveRule)
	}
	switch v.Counting {
	case engine.MakrukCounting:
		add("Makruk's counting rules (board's and pieces' honour) draw an ending that takes too long")
	case engine.AseanCounting:
		add("ASEAN counting rules draw an ending against a bare king that takes too long")
	}
	if v.RepetitionRule > 0 {
		add("%d-fold repetition draws", v.RepetitionRule)
	}
	if v.PerpetualCheckIllegal {
		add("a side that checks with every move of a repetition loses")
	}
	if len(v.MaterialPoints) > 0 {
		add("games the rules would draw are decided by material points %s: White needs more than one point more", pointsText(v))
	}
	return out
}

// regionSummary describes the rules of regions and of the Asian games.
func regionSummary(v *engine.Variant) []string {
	var out []string
	for _, pt := range v.Pieces {
		if pt.Region != nil {
			out = append(out, fmt.Sprintf("%c stays on %d squares (White) and %d (Black)", pt.Letter, pt.Region[engine.White].Count(), pt.Region[engine.Black].Count()))
		}
		if pt.SparesOwnKind {
			out = append(out, fmt.Sprintf("%c neither jumps over nor captures another %c", pt.Letter, pt.Letter))
		}
	}
	if v.FlyingGeneral {
		out = append(out, "the royal pieces may not face each other on an open line")
	}
	if !v.DiagonalLines.Empty() {
		out = append(out, fmt.Sprintf("palace diagonals through %d points", v.DiagonalLines.Count()))
	}
	if v.KingPass {
		out = append(out, "a side may pass (the royal piece to its own square) when not in check")
	}
	if v.Bikjang {
		out = append(out, "facing royal pieces must be parted, or the game ends (bikjang); so do two passes running")
	}
	return out
}

// pointsText lists MaterialPoints by letter, in the pieces' order.
func pointsText(v *engine.Variant) string {
	var parts []string
	for _, pt := range v.Pieces {
		if n, ok := v.MaterialPoints[pt.Letter]; ok {
			parts = append(parts, fmt.Sprintf("%c:%d", pt.Letter, n))
		}
	}
	return strings.Join(parts, " ")
}
