//! Propagation: what placing a value or removing a candidate implies, until nothing more follows
//! or a contradiction shows (see the module documentation of [`super`]).

use super::{Membership, Overlap, PLACED, Solver};

impl Solver {
    /// Removes the candidates `bits` from `cell`, in its word and in the value words of its
    /// houses, queueing what becomes decided; false on a contradiction.
    pub(super) fn eliminate(&mut self, cell: usize, bits: u32) -> bool {
        let word = self.words[cell];
        let left = word & !bits;
        if left & !PLACED == 0 {
            return false;
        }
        self.set(cell, left);
        if left & (left - 1) == 0 {
            self.pending.push(cell as u16);
        }
        let members = self.member_start[cell] as usize..self.member_start[cell + 1] as usize;
        let mut removed = bits & word;
        while removed != 0 {
            let value = removed.trailing_zeros() as usize;
            removed &= removed - 1;
            for member in members.clone() {
                let Membership { first, place, .. } = self.memberships[member];
                if !self.remove_place(usize::from(first) + value, place) {
                    return false;
                }
            }
        }
        true
    }

    /// Locked candidates: when a house's value can only go where the house overlaps another, the
    /// other's places outside the overlap lose it. Some(whether anything was removed), None on a
    /// contradiction.
    pub(super) fn lock_candidates(&mut self) -> Option<bool> {
        let size = self.size;
        let mut removed = false;
        for index in 0..self.overlaps.len() {
            let Overlap {
                first,
                second,
                in_first,
                in_second,
            } = self.overlaps[index];
            let (first, second) = (first as usize, second as usize);
            // Most overlaps have nothing to remove: a branch-free test of all values at once
            // finds those quickly.
            let lock = |a: u32, b: u32| (a & !in_first == 0) != (b & !in_second == 0);
            let firsts = &self.words[first..first + size];
            let seconds = &self.words[second..second + size];
            if !firsts
                .iter()
                .zip(seconds)
                .fold(false, |any, (&a, &b)| any | lock(a, b))
            {
                continue;
            }
            for value in 0..size {
                let (a, b) = (self.words[first + value], self.words[second + value]);
                let (a_out, b_out) = (a & !in_first, b & !in_second);
                let (house, outside) = match (a_out, b_out) {
                    (0, 0) => continue,
                    (0, _) => (second, b_out),
                    (_, 0) => (first, a_out),
                    _ => continue,
                };
                removed = true;
                let mut places = outside;
                while places != 0 {
                    let cell = usize::from(
                        self.houses[house - self.cells + places.trailing_zeros() as usize],
                    );
                    places &= places - 1;
                    if self.words[cell] & (1 << value) != 0 && !self.eliminate(cell, 1 << value) {
                        return None;
                    }
                }
            }
        }
        Some(removed)
    }

    /// Removes the value `value` from `peer` of a cell just placed, in its word and in the value
    /// words of its houses but the one whose first value word is `placed_in` (which the placement
    /// sets whole); false on a contradiction.
    pub(super) fn remove_from_peer(&mut self, peer: usize, value: usize, placed_in: u16) -> bool {
        let left = self.words[peer] & !(1 << value);
        if left & !PLACED == 0 {
            return false;
        }
        self.set(peer, left);
        if left & (left - 1) == 0 {
            self.pending.push(peer as u16);
        }
        for member in self.member_start[peer] as usize..self.member_start[peer + 1] as usize {
            let Membership { first, place, .. } = self.memberships[member];
            if first == placed_in {
                continue;
            }
            if !self.remove_place(usize::from(first) + value, place) {
                return false;
            }
        }
        true
    }

    /// Removes `place` from the value word `index`; a word left with one place goes on the stack
    /// of hidden singles. False when none is left.
    #[inline(always)]
    pub(super) fn remove_place(&mut self, index: usize, place: u8) -> bool {
        let places = self.words[index] & !(1 << place);
        self.set(index, places);
        if places & places.wrapping_sub(1) == 0 {
            if places == 0 {
                return false;
            }
            self.hidden.push(index as u16);
        }
        true
    }

    /// Places every decided cell and every hidden single until none is left; false on a
    /// contradiction.
    pub(super) fn propagate(&mut self) -> bool {
        loop {
            if let Some(cell) = self.pending.pop() {
                let cell = usize::from(cell);
                let bit = self.words[cell];
                if bit & PLACED != 0 {
                    continue;
                }
                self.set(cell, bit | PLACED);
                // The peers that still have the value are the other places of the value words,
                // each of which is left with the cell alone.
                let value = bit.trailing_zeros() as usize;
                for member in self.member_start[cell] as usize..self.member_start[cell + 1] as usize
                {
                    let Membership { first, place, .. } = self.memberships[member];
                    let index = usize::from(first) + value;
                    let mut others = self.words[index] & !(1 << place);
                    if others == 0 {
                        continue;
                    }
                    self.set(index, 1 << place);
                    let house = usize::from(first) - self.cells;
                    while others != 0 {
                        let peer =
                            usize::from(self.houses[house + others.trailing_zeros() as usize]);
                        others &= others - 1;
                        if self.words[peer] & bit != 0 && !self.remove_from_peer(peer, value, first)
                        {
                            return false;
                        }
                    }
                }
            } else if let Some(index) = self.hidden.pop() {
                let index = usize::from(index);
                let places = self.words[index];
                let value = (index - self.cells) % self.size;
                let house = index - self.cells - value;
                let bit = 1 << value;
                let cell = usize::from(self.houses[house + places.trailing_zeros() as usize]);
                let others = self.words[cell] & !bit & self.full;
                if others != 0 && !self.eliminate(cell, others) {
                    return false;
                }
            } else {
                return true;
            }
        }
    }
}
