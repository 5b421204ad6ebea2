package engine

import (
	"fmt"
	"strings"
)

// SAN returns m, which must be legal, in Standard Algebraic Notation: Nf3,
// exd5, e8=Q+, O-O-O, with the shortest disambiguation and a check (+) or
// mate (#) mark. Fairy pieces use their FEN letter; drops are P@e4; a
// pass is --.
func (p *Position) SAN(m Move) string {
	var moves [MaxMoves]Move
	legal := p.LegalMoves(moves[:0])
	return p.san(m, legal) + p.checkSuffix(m)
}

func (p *Position) san(m Move, legal []Move) string {
	v := p.v
	if m.isCastle() {
		san := "O-O"
		if p.castles.rules[m.castleRule()].Letter == 'Q' {
			san = "O-O-O"
		}
		if m.gate() != 0 {
			// The gating piece and, as Fairy-Stockfish writes it, its square.
			san += "/" + strings.ToUpper(v.gateLetter(m)) + p.gateSquare(m).String()
		}
		return san
	}
	from, to := m.From(), m.To()
	if m.Kind() == Pass {
		return "--" // a pass, as PGN readers write a null move
	}
	if m.Dropped() != 0 {
		return v.dropText(m) // P@e4, as Fairy-Stockfish writes drops
	}
	pc := p.board[from]
	if m.Kind() == Launch {
		// A launch is written like its UCI form, after the missile's letter.
		return string(v.Pieces[pc.Type()-1].Letter) + from.String() + "*" + to.String()
	}
	capture := p.board[to] != NoPiece && to != from || m.Kind() == EnPassant
	var b strings.Builder
	pawn := v.PieceType(pc).Role == RolePawn
	if !pawn {
		b.WriteByte(v.Pieces[pc.Type()-1].Letter)
	}
	// Disambiguate among same-type pieces that can reach the same square.
	ambiguous, sameFile, sameRank := false, false, false
	for _, o := range legal {
		if o.To() != to || o.From() == from || p.board[o.From()] != pc || o.isCastle() {
			continue
		}
		ambiguous = true
		sameFile = sameFile || o.From().File() == from.File()
		sameRank = sameRank || o.From().Rank() == from.Rank()
	}
	switch {
	case pawn && capture, ambiguous && !sameFile:
		b.WriteByte(byte('a' + from.File()))
	case ambiguous && !sameRank:
		fmt.Fprint(&b, from.Rank()+1)
	case ambiguous:
		b.WriteString(from.String())
	}
	if capture {
		b.WriteByte('x')
	}
	b.WriteString(to.String())
	if t := m.Promotion(); t != 0 {
		b.WriteByte('=')
		b.WriteByte(v.Pieces[t-1].Letter)
	}
	if m.gate() != 0 {
		b.WriteString("/" + strings.ToUpper(v.gateLetter(m)))
	}
	return b.String()
}

// checkSuffix returns "#" if m mates, "+" if it checks, else "".
func (p *Position) checkSuffix(m Move) string {
	p.Make(m)
	defer p.Unmake()
	if !p.InCheck() {
		return ""
	}
	if !p.HasLegalMove() {
		return "#"
	}
	return "+"
}

// ParseSAN finds the legal move written in SAN. Check marks and annotations
// (+ # ! ?) are optional, castling may be written with zeros, and a pawn
// drop without its letter (@e4).
func (p *Position) ParseSAN(s string) (Move, error) {
	want := strings.TrimRight(s, "+#!?")
	if strings.HasPrefix(want, "0-0") {
		want = strings.ReplaceAll(want, "0", "O")
	}
	if want == "pass" || want == "@@@@" {
		want = "--"
	}
	if strings.HasPrefix(want, "@") && p.v.handPawn != 0 {
		want = string(p.v.Pieces[p.v.handPawn-1].Letter) + want // @e4: a pawn drop
	}
	var moves [MaxMoves]Move
	legal := p.LegalMoves(moves[:0])
	for _, m := range legal {
		if san := p.san(m, legal); san == want || strings.ReplaceAll(san, "=", "") == want {
			return m, nil
		}
	}
	return NoMove, fmt.Errorf("SAN move %q is not legal in %s", s, p.FEN())
}
