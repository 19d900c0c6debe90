//! Tests.
use super::board::*;
use super::*;

#[test]
fn scratch() {
    let p = AlmaTafl::start(Variant::Standard, 0);
    let mut v = Vec::new();
    p.legal_moves(&mut v);
    println!("{}", v.len());
    println!("{}", p.diagram());
    println!("{}", p.to_notation());
    let geo = geometry();
    for c in 0..CELLS {
        let (x, y) = geo.coords[c];
        for (dc, dr) in DIRECTIONS {
            for d in 2..=3i32 {
                let (tx, ty) = (x as i32 + dc as i32 * d, y as i32 + dr as i32 * d);
                if (0..11).contains(&tx)
                    && (0..11).contains(&ty)
                    && geo.index[ty as usize][tx as usize] != NONE
                {
                    let mid_ok = (1..d).all(|k| {
                        let (mx, my) = (x as i32 + dc as i32 * k, y as i32 + dr as i32 * k);
                        (0..11).contains(&mx)
                            && (0..11).contains(&my)
                            && geo.index[my as usize][mx as usize] != NONE
                    });
                    if !mid_ok {
                        println!(
                            "notch: {} {:?} {}",
                            Cell::from_index(c).unwrap(),
                            (dc, dr),
                            d
                        );
                    }
                }
            }
        }
    }
    println!("{}", crate::game::perft(&p, 2));
}
