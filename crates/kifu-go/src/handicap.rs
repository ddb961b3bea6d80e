//! Fixed handicap placement on the standard points.

use crate::{Error, Point};

/// The standard points for `stones` handicap stones on a board of `size` lines
/// (GTP `fixed_handicap` placement): 2 to 9 stones on odd boards of 9 or more
/// lines (at most 4 on even boards or 7 lines). On 9x9 the corner points are on
/// the third line, from 13x13 on the fourth.
///
/// ```
/// use kifu_go::{fixed_handicap_points, Point};
/// let p = fixed_handicap_points(19, 2).unwrap();
/// assert!(p.contains(&Point::from_gtp("D4", 19).unwrap()));
/// assert!(p.contains(&Point::from_gtp("Q16", 19).unwrap()));
/// ```
pub fn fixed_handicap_points(size: u8, stones: u32) -> Result<Vec<Point>, Error> {
    let bad = || Error::Handicap { stones, size };
    if size < 7 || stones < 2 {
        return Err(bad());
    }
    let odd = size % 2 == 1;
    let max = if odd && size > 7 { 9 } else { 4 };
    if stones > max {
        return Err(bad());
    }
    let edge = if size < 13 { 2 } else { 3 };
    let lo = edge;
    let hi = size - 1 - edge;
    let mid = size / 2;
    // Order: the GTP order (lower left, upper right, upper left, lower right,
    // then sides and centre). y counts from the top.
    let corners = [
        Point::new(lo, hi),
        Point::new(hi, lo),
        Point::new(lo, lo),
        Point::new(hi, hi),
    ];
    let mut out: Vec<Point> = Vec::new();
    let n = stones as usize;
    out.extend_from_slice(&corners[..n.min(4)]);
    let centre = Point::new(mid, mid);
    let left_right = [Point::new(lo, mid), Point::new(hi, mid)];
    let top_bottom = [Point::new(mid, lo), Point::new(mid, hi)];
    match n {
        5 => out.push(centre),
        6 => out.extend_from_slice(&left_right),
        7 => {
            out.extend_from_slice(&left_right);
            out.push(centre);
        }
        8 => {
            out.extend_from_slice(&left_right);
            out.extend_from_slice(&top_bottom);
        }
        9 => {
            out.extend_from_slice(&left_right);
            out.extend_from_slice(&top_bottom);
            out.push(centre);
        }
        _ => {}
    }
    Ok(out)
}
