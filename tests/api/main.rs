//! The API tests, over real HTTP on both databases, in one test binary: each file is a module, as
//! in zero2prod's `tests/api/`. One binary links the server once instead of a dozen times, which
//! was most of a cold CI build. The fault tests (`tests/faults/`) stay a binary of their own.

#[macro_use]
#[path = "../common/mod.rs"]
mod common;

mod bad_input;
mod clocks;
mod conformance;
mod contract;
mod endings;
mod go_api;
mod gomoku_api;
mod gomoku_easy_oracle;
mod ops_api;
mod players_api;
mod playground;
mod poker_api;
mod release_store;
mod security;
mod seeks;
mod store_contract;
mod streams;
mod tictactoe;
mod uno_api;
