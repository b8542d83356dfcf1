use sudoku_gen::shape::*;
fn main() {
    let text = std::fs::read("/work/shared/data/shapes/16x16.txt").unwrap();
    let p = text::parse_shaped(&text, &ShapeRequest::default()).unwrap();
    let mut s = solve::Solver::new(p.shape(0));
    let mut out = vec![0; 256];
    let mut tot = 0;
    for i in 0..p.len() {
        let t = std::time::Instant::now();
        // find guesses used by bisecting the budget
        let mut lo = 0; let mut hi = 1usize << 22;
        while lo < hi { let mid = (lo + hi) / 2; if s.count_within(p.puzzle(i), 1, &mut out, mid).is_some() { hi = mid } else { lo = mid + 1 } }
        tot += lo;
        let _ = t;
        print!("{lo} ");
    }
    println!("\ntotal {tot}");
}
