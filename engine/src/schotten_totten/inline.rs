//! A list of at most `N` small values held inline: copying a state then
//! allocates nothing (a random playout copies it every ply). Reads as a slice.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::{Deref, DerefMut};

/// A value that fills the unused places of an [`Inline`] list.
pub trait Blank: Copy {
    /// The filler (never read as an item).
    const BLANK: Self;
}

/// At most `N` values, in order.
#[derive(Clone, Copy)]
pub struct Inline<T: Blank, const N: usize> {
    len: u8,
    items: [T; N],
}

impl<T: Blank, const N: usize> Inline<T, N> {
    /// No value.
    pub const fn new() -> Self {
        Inline {
            len: 0,
            items: [T::BLANK; N],
        }
    }

    /// The list of `items`, if they are at most `N`.
    pub fn from_slice(items: &[T]) -> Option<Self> {
        let mut list = Self::new();
        list.items.get_mut(..items.len())?.copy_from_slice(items);
        list.len = items.len() as u8;
        Some(list)
    }

    /// The list of the first `N` of `items`, and whether that is all of them.
    pub(crate) fn truncated(items: &[T]) -> (Self, bool) {
        let all = items.len() <= N;
        let list = Self::from_slice(&items[..items.len().min(N)]).unwrap_or_default();
        (list, all)
    }

    /// Adds a value at the end; the rules never add one to a full list.
    pub(crate) fn push(&mut self, x: T) {
        self.insert(self.len(), x);
    }

    /// Puts `x` at `i`, the later values moving down; the rules never add
    /// one to a full list.
    pub(crate) fn insert(&mut self, i: usize, x: T) {
        let len = self.len();
        assert!(len < N, "the list holds at most {N} values");
        self.items.copy_within(i..len, i + 1);
        self.items[i] = x;
        self.len += 1;
    }

    /// Takes out the value at `i`, the later ones moving up.
    pub(crate) fn remove(&mut self, i: usize) -> T {
        let (x, len) = (self[i], self.len());
        self.items.copy_within(i + 1..len, i);
        self.len -= 1;
        x
    }

    /// Takes out the last value.
    pub(crate) fn pop(&mut self) -> Option<T> {
        let last = self.len().checked_sub(1)?;
        Some(self.remove(last))
    }
}

impl<T: Blank, const N: usize> Default for Inline<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Blank, const N: usize> Deref for Inline<T, N> {
    type Target = [T];

    fn deref(&self) -> &[T] {
        &self.items[..self.len as usize]
    }
}

impl<T: Blank, const N: usize> DerefMut for Inline<T, N> {
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.items[..self.len as usize]
    }
}

impl<'a, T: Blank, const N: usize> IntoIterator for &'a Inline<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;

    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<T: Blank, const N: usize> IntoIterator for Inline<T, N> {
    type Item = T;
    type IntoIter = std::iter::Take<std::array::IntoIter<T, N>>;

    fn into_iter(self) -> Self::IntoIter {
        self.items.into_iter().take(self.len())
    }
}

impl<T: Blank + PartialEq, const N: usize> PartialEq for Inline<T, N> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T: Blank + Eq, const N: usize> Eq for Inline<T, N> {}

impl<T: Blank + Hash, const N: usize> Hash for Inline<T, N> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (**self).hash(state);
    }
}

impl<T: Blank + fmt::Debug, const N: usize> fmt::Debug for Inline<T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    impl Blank for u8 {
        const BLANK: u8 = 0;
    }

    #[test]
    fn values_go_in_and_out_in_order() {
        let mut list = Inline::<u8, 4>::from_slice(&[1, 3]).expect("two fit");
        list.insert(1, 2);
        list.push(4);
        assert_eq!(&*list, &[1, 2, 3, 4]);
        assert_eq!(list.remove(0), 1);
        assert_eq!(list.pop(), Some(4));
        assert_eq!(&*list, &[2, 3]);
        assert!(Inline::<u8, 2>::from_slice(&[1, 2, 3]).is_none());
        let (first, all) = Inline::<u8, 2>::truncated(&[7, 8, 9]);
        assert_eq!((&*first, all), (&[7, 8][..], false));
    }
}
