# Multi-stage build: compile with the Rust image, run on a small Debian with a non-root user.
# The toolchain is pinned (the rustc the project is built and tested with), so an image built
# next year compiles the same way; raise it together with the developers' toolchain.
FROM rust:1.95-bookworm AS build
WORKDIR /src

# 1. The dependencies alone, on stand-in sources: this layer is rebuilt only when Cargo.toml or
#    Cargo.lock change, not on every edit of src/. Cargo.toml names the benches, so their files
#    must exist too (examples and tests are found by directory and are not needed).
COPY Cargo.toml Cargo.lock ./
COPY crates/parlor-games/Cargo.toml crates/parlor-games/
RUN mkdir -p src benches crates/parlor-games/src crates/parlor-games/benches \
 && echo 'fn main() {}' > src/main.rs \
 && touch src/lib.rs crates/parlor-games/src/lib.rs \
 && echo 'fn main() {}' > benches/create_flood.rs \
 && echo 'fn main() {}' > crates/parlor-games/benches/poker.rs \
 && cargo build --release --locked --bin parlor \
 && rm -rf src benches crates

# 2. The real sources (the migrations are compiled into the binary). COPY keeps the files' own
#    times, which can be older than the stand-ins' build: touch them so Cargo rebuilds the crate.
COPY src src
COPY crates crates
COPY migrations migrations
COPY benches benches
RUN touch src/main.rs src/lib.rs crates/parlor-games/src/lib.rs \
 && cargo build --release --locked --bin parlor

FROM debian:bookworm-slim
RUN useradd --system --create-home --home-dir /var/lib/parlor parlor
COPY --from=build /src/target/release/parlor /usr/local/bin/parlor
# The SQLite default lives in a volume, so it outlives the container (PostgreSQL needs none).
VOLUME /var/lib/parlor
USER parlor
WORKDIR /var/lib/parlor
ENV HOST=0.0.0.0 PORT=8080 DATABASE_URL=sqlite:///var/lib/parlor/parlor.db
EXPOSE 8080
# The slim image has no curl: the binary asks its own /ready (HOST/PORT as above).
HEALTHCHECK --interval=10s --timeout=5s --start-period=30s --retries=3 \
    CMD ["parlor", "healthcheck"]
ENTRYPOINT ["parlor"]
