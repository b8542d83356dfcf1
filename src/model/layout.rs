//! Jigsaw layouts: N regions of N connected cells, read from text as N·N region characters.

use super::shape::SIZES;

/// The region characters of the layouts this program writes.
pub(crate) const LAYOUT_NAMES: &[u8; 25] = b"abcdefghijklmnopqrstuvwxy";

/// The cells next to `cell` through an edge.
pub(crate) fn neighbours(cell: usize, size: usize) -> Vec<usize> {
    let (row, column) = (cell / size, cell % size);
    let mut next = Vec::with_capacity(4);
    if row > 0 {
        next.push(cell - size);
    }
    if row + 1 < size {
        next.push(cell + size);
    }
    if column > 0 {
        next.push(cell - 1);
    }
    if column + 1 < size {
        next.push(cell + 1);
    }
    next
}

/// Whether `cell` touches region `region` through a cell other than `except`.
pub(crate) fn neighbours_of_region(
    cell: usize,
    size: usize,
    region_of: &[u8],
    region: u8,
    except: usize,
) -> bool {
    neighbours(cell, size)
        .into_iter()
        .any(|n| n != except && region_of[n] == region)
}

/// Whether the cells of `region` are connected through shared edges.
pub(crate) fn is_connected(region_of: &[u8], size: usize, region: u8) -> bool {
    stray_part(region_of, size, region).is_none()
}

/// The first cell of the smallest of the parts `region` falls into, when it falls into more than
/// one: the stray cells a message points at, rather than the main part (which the first cell may
/// be in). Of parts of one size, the last: the first cell's part reads as the region's own.
fn stray_part(region_of: &[u8], size: usize, region: u8) -> Option<usize> {
    let mut seen = vec![false; region_of.len()];
    // The number of parts, and the (cells, first cell) of the one to name.
    let (mut parts, mut stray) = (0, (usize::MAX, 0));
    for start in 0..region_of.len() {
        if region_of[start] != region || seen[start] {
            continue;
        }
        let (mut stack, mut cells) = (vec![start], 0);
        seen[start] = true;
        while let Some(cell) = stack.pop() {
            cells += 1;
            for next in neighbours(cell, size) {
                if !seen[next] && region_of[next] == region {
                    seen[next] = true;
                    stack.push(next);
                }
            }
        }
        parts += 1;
        if cells <= stray.0 {
            stray = (cells, start);
        }
    }
    (parts > 1).then_some(stray.1)
}

/// Regions renumbered in order of first appearance.
pub(crate) fn renumbered(region_of: &[u8]) -> Vec<u8> {
    let mut names = [u8::MAX; 256];
    let mut next = 0;
    region_of
        .iter()
        .map(|&r| {
            if names[usize::from(r)] == u8::MAX {
                names[usize::from(r)] = next;
                next += 1;
            }
            names[usize::from(r)]
        })
        .collect()
}

pub(crate) fn region_count(region_of: &[u8]) -> usize {
    usize::from(region_of.iter().copied().max().unwrap_or(0)) + 1
}

/// A problem of a layout text, at a line and a column of it (both counted from 1, the column in
/// bytes), so that a message can name the place as `FILE:LINE:COLUMN`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LayoutError {
    /// The line of the problem.
    pub line: usize,
    /// The column of the problem.
    pub column: usize,
    /// What is wrong.
    pub problem: String,
}

impl std::fmt::Display for LayoutError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "line {}, column {}: {}",
            self.line, self.column, self.problem
        )
    }
}

/// Reads a layout (see [`Shape::jigsaw`](super::shape::Shape::jigsaw)) into region indices,
/// numbered in order of first appearance, checking that it has N regions of N connected cells.
/// A problem is located where it shows: the character, the line of the wrong length, the first
/// cell of a region too many, the cell of a region past its N, or the first cell that its region
/// does not reach.
pub fn read_layout(text: &[u8], size: Option<usize>) -> Result<Vec<u8>, LayoutError> {
    read_named_layout(text, size).map(|(region_of, _)| region_of)
}

/// As [`read_layout`], with the character that names each region (by region index) in `text`.
pub fn read_named_layout(
    text: &[u8],
    size: Option<usize>,
) -> Result<(Vec<u8>, Vec<u8>), LayoutError> {
    let text = text.strip_prefix(b"\xef\xbb\xbf").unwrap_or(text);
    let lines: Vec<(usize, &[u8])> = text
        .split(|&b| b == b'\n')
        .map(|line| line.strip_suffix(b"\r").unwrap_or(line).trim_ascii_end())
        .enumerate()
        .map(|(k, line)| (k + 1, line))
        .filter(|(_, line)| !line.is_empty())
        .collect();
    let error = |(line, column): (usize, usize), problem: String| LayoutError {
        line,
        column,
        problem,
    };
    // The line and column of each cell, in cell order.
    let places: Vec<(usize, usize)> = lines
        .iter()
        .flat_map(|&(number, line)| (1..=line.len()).map(move |column| (number, column)))
        .collect();
    let first_line = lines.first().map_or(1, |&(number, _)| number);
    let shape_error = |place: (usize, usize), found: String| {
        error(
            place,
            format!(
                "{found}: expected N lines of N region characters, or one line of N·N, with N \
                 from 4 to 25"
            ),
        )
    };
    // First, so that the counts below count characters: every region character is one byte.
    for &(number, line) in &lines {
        if let Some(at) = line.iter().position(|ch| !ch.is_ascii_graphic()) {
            let found = match String::from_utf8_lossy(&line[at..]).chars().next() {
                Some(ch)
                    if !ch.is_control()
                        && !ch.is_whitespace()
                        && ch != char::REPLACEMENT_CHARACTER =>
                {
                    format!("'{ch}'")
                }
                _ => format!("byte 0x{:02x}", line[at]),
            };
            return Err(error(
                (number, at + 1),
                format!("{found} cannot name a region (a printable ASCII character does)"),
            ));
        }
        // The lines and CSV rows that carry a layout would not read back: a line that starts
        // with `#` is a comment, and commas and quotes delimit CSV fields.
        if let Some(at) = line.iter().position(|ch| b"#,\"".contains(ch)) {
            return Err(error(
                (number, at + 1),
                format!(
                    "'{}' cannot name a region: the lines and CSV rows that carry a layout \
                     would not read back (any other printable ASCII character can)",
                    char::from(line[at])
                ),
            ));
        }
    }
    let side = match lines.as_slice() {
        [] => return Err(shape_error((1, 1), "no region characters".into())),
        [(number, one)] => (4..=25).find(|s| s * s == one.len()).ok_or_else(|| {
            shape_error(
                (*number, 1),
                format!("one line of {} characters", one.len()),
            )
        })?,
        [(_, row), rest @ ..] => {
            let width = row.len();
            if let Some(&(number, line)) = rest.iter().find(|(_, line)| line.len() != width) {
                let found = format!("a line of {} characters after one of {width}", line.len());
                return Err(shape_error((number, line.len().min(width) + 1), found));
            }
            let n = rest.len() + 1;
            if n < width {
                let after = lines[n - 1].0 + 1;
                let found = format!("{n} lines of {width} characters");
                return Err(shape_error((after, 1), found));
            }
            if n > width {
                let found = format!("more than {width} lines of {width} characters");
                return Err(shape_error((lines[width].0, 1), found));
            }
            width
        }
    };
    if !SIZES.contains(&side) {
        return Err(shape_error(
            (first_line, 1),
            format!("{side} lines of {side} characters"),
        ));
    }
    if let Some(size) = size.filter(|&size| size != side) {
        return Err(error(
            (first_line, 1),
            format!("the layout is {side}×{side}, but the flags ask for {size}×{size}"),
        ));
    }
    let chars: Vec<u8> = lines
        .iter()
        .flat_map(|(_, line)| line.iter().copied())
        .collect();
    let region_of = renumbered(&chars);
    let regions = region_count(&region_of);
    if regions != side {
        // Too many: the first cell of the smallest region, most likely a stray character; too
        // few: the first cell of the largest, which holds another region's cells too.
        let sizes: Vec<usize> = (0..regions as u8)
            .map(|r| region_of.iter().filter(|&&c| c == r).count())
            .collect();
        let pick = if regions > side {
            (0..regions).min_by_key(|&r| sizes[r])
        } else {
            (0..regions).max_by_key(|&r| (sizes[r], std::cmp::Reverse(r)))
        };
        let pick = pick.expect("a region") as u8;
        let at = region_of.iter().position(|&r| r == pick).expect("a cell");
        return Err(error(
            places[at],
            format!("it has {regions} regions; expected {side}"),
        ));
    }
    for region in 0..side as u8 {
        let cells: Vec<usize> = (0..chars.len())
            .filter(|&c| region_of[c] == region)
            .collect();
        let name = chars[cells[0]] as char;
        if cells.len() != side {
            // Past its N cells, the cell that makes it too big; else where it starts.
            let at = cells.get(side).copied().unwrap_or(cells[0]);
            return Err(error(
                places[at],
                format!("region '{name}' has {} cells; expected {side}", cells.len()),
            ));
        }
        if let Some(at) = stray_part(&region_of, side, region) {
            return Err(error(
                places[at],
                format!(
                    "region '{name}' is not connected (its cells must join through shared edges)"
                ),
            ));
        }
    }
    let names = (0..side as u8)
        .map(|region| chars[region_of.iter().position(|&r| r == region).expect("a cell")])
        .collect();
    Ok((region_of, names))
}
