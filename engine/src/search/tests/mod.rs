//! Tests of the searchers on small games whose theory is known.

mod alphabeta;
mod games;
mod mcts;
mod parts;
mod tt;
