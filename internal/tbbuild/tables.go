package tbbuild

// tableState is what the builder knows of one table, as a set of marks:
// they are not exclusive (a table being loaded may be hurried; one Await
// builds may also have been tried), so one table has one value holding
// them all rather than one map per mark.
type tableState uint8

const (
	// tableTried: built, found, refused or failed: not again.
	tableTried tableState = 1 << iota
	// tableLoading: its file is being read (beside any build).
	tableLoading
	// tableHurried: a search needs it: while any table is, the builder
	// goes on even when paused (the build under way first gets out of its
	// way).
	tableHurried
	// tableAwaited: Await is building it in this process: the builder
	// leaves it alone.
	tableAwaited
	// tableUnreadable: its file failed to load (damaged, or made for
	// another definition of the variant): estimated as a build.
	tableUnreadable
)

// isLocked reports whether k's table has any of the marks s.
func (b *Builder) isLocked(k key, s tableState) bool { return b.tables[k]&s != 0 }

// markLocked gives k's table the marks s, counting the hurried ones.
func (b *Builder) markLocked(k key, s tableState) {
	old := b.tables[k]
	if s&tableHurried != 0 && old&tableHurried == 0 {
		b.hurriedCount++
	}
	b.tables[k] = old | s
}

// unmarkLocked takes the marks s from k's table (a table left with none
// is forgotten), counting the hurried ones.
func (b *Builder) unmarkLocked(k key, s tableState) {
	old := b.tables[k]
	if s&tableHurried != 0 && old&tableHurried != 0 {
		b.hurriedCount--
	}
	if now := old &^ s; now != 0 {
		b.tables[k] = now
	} else {
		delete(b.tables, k)
	}
}
