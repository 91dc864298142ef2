# Multi-stage build: compile with the full Rust image, run on a small Debian with a non-root user.
FROM rust:1-bookworm AS build
WORKDIR /src
COPY Cargo.toml Cargo.lock ./
COPY src src
COPY migrations migrations
COPY benches benches
COPY examples examples
RUN cargo build --release --locked --bin parlor

FROM debian:bookworm-slim
RUN useradd --system --create-home --home-dir /var/lib/parlor parlor
COPY --from=build /src/target/release/parlor /usr/local/bin/parlor
USER parlor
WORKDIR /var/lib/parlor
ENV HOST=0.0.0.0 PORT=8080
EXPOSE 8080
ENTRYPOINT ["parlor"]
