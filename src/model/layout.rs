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
    let Some(start) = region_of.iter().position(|&r| r == region) else {
        return true;
    };
    let mut seen = vec![false; region_of.len()];
    let mut stack = vec![start];
    seen[start] = true;
    let mut reached = 0;
    while let Some(cell) = stack.pop() {
        reached += 1;
        for next in neighbours(cell, size) {
            if !seen[next] && region_of[next] == region {
                seen[next] = true;
                stack.push(next);
            }
        }
    }
    reached == region_of.iter().filter(|&&r| r == region).count()
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

/// Reads a layout (see [`Shape::jigsaw`](super::shape::Shape::jigsaw)) into region indices,
/// numbered in order of first appearance, checking that it has N regions of N connected cells.
pub fn read_layout(text: &[u8], size: Option<usize>) -> Result<Vec<u8>, String> {
    let text = text.strip_prefix(b"\xef\xbb\xbf").unwrap_or(text);
    let lines: Vec<&[u8]> = text
        .split(|&b| b == b'\n')
        .map(|line| line.strip_suffix(b"\r").unwrap_or(line).trim_ascii_end())
        .filter(|line| !line.is_empty())
        .collect();
    let chars: Vec<u8> = lines.concat();
    let side = match lines.as_slice() {
        [one] => (4..=25).find(|s| s * s == one.len()),
        many => Some(many.len()).filter(|&n| many.iter().all(|line| line.len() == n)),
    };
    let Some(side) = side.filter(|s| SIZES.contains(s)) else {
        return Err(
            "expected N lines of N region characters, or one line of N·N, with N from 4 to 25"
                .into(),
        );
    };
    if let Some(size) = size.filter(|&size| size != side) {
        return Err(format!("the layout is {side}×{side} but --size is {size}"));
    }
    if let Some(&bad) = chars.iter().find(|ch| !ch.is_ascii_graphic()) {
        return Err(format!("byte 0x{bad:02x} cannot name a region"));
    }
    let region_of = renumbered(&chars);
    let regions = region_count(&region_of);
    if regions != side {
        return Err(format!("it has {regions} regions; expected {side}"));
    }
    for region in 0..side as u8 {
        let first = region_of
            .iter()
            .position(|&r| r == region)
            .expect("a region");
        let name = chars[first] as char;
        let cells = region_of.iter().filter(|&&r| r == region).count();
        if cells != side {
            return Err(format!(
                "region '{name}' has {cells} cells; expected {side}"
            ));
        }
        if !is_connected(&region_of, side, region) {
            return Err(format!(
                "region '{name}' is not connected (its cells must join through shared edges)"
            ));
        }
    }
    Ok(region_of)
}
