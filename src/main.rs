use std::io::{ErrorKind, Read, Write};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr, TcpStream, ToSocketAddrs};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use clap::{Parser, Subcommand};
use parlor::app::{plain_io, Application};
use parlor::{config::Config, http::openapi, store, telemetry};

/// Parlor: UNO, Go, Gomoku and Poker over a REST/JSON API.
#[derive(Parser)]
#[command(version, about)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    config: Config,
}

#[derive(Subcommand)]
enum Command {
    /// Serve the API (the default).
    Serve,
    /// Print the OpenAPI document.
    Openapi,
    /// Ask a running server whether it is ready: exit status 0 if so, 1 if not.
    ///
    /// Sends GET /ready to --host/--port (HOST/PORT; 0.0.0.0 and :: mean this machine, reached
    /// through the loopback) and succeeds when it answers 200 within 3 s. Flags go before the
    /// command: `parlor --port 9000 healthcheck`. The Docker image's HEALTHCHECK runs it.
    Healthcheck,
}

/// How long `parlor healthcheck` waits for the whole exchange.
const HEALTHCHECK_TIMEOUT: Duration = Duration::from_secs(3);

/// Every failure ends here: one sentence on stderr, exit status 1.
fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command.unwrap_or(Command::Serve) {
        Command::Openapi => print_openapi(),
        Command::Healthcheck => healthcheck(&cli.config.host, cli.config.port, HEALTHCHECK_TIMEOUT),
        Command::Serve => serve(cli.config),
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(sentence) => {
            // Nothing to do if stderr is gone too.
            let _ = writeln!(std::io::stderr(), "parlor: {}", one_line(&sentence));
            ExitCode::FAILURE
        }
    }
}

fn serve(config: Config) -> Result<(), String> {
    actix_web::rt::System::new().block_on(async move {
        telemetry::init(&config.log_format);
        let database = store::describe(&config.database_url);
        let app = Application::build(config)
            .await
            .map_err(|e| e.to_string())?;
        tracing::info!(
            address = %app.address(),
            %database,
            "parlor is serving; Swagger UI at /docs/"
        );
        app.run()
            .await
            .map_err(|e| format!("the server stopped: {}", plain_io(&e)))
    })
}

/// Writes the document to stdout. A reader that stops early (`parlor openapi | head -1`) closes
/// the pipe: that is its right, not a failure.
fn print_openapi() -> Result<(), String> {
    let mut out = std::io::stdout().lock();
    match writeln!(out, "{}", openapi::document_json()).and_then(|()| out.flush()) {
        Err(e) if e.kind() != ErrorKind::BrokenPipe => Err(format!(
            "cannot write the OpenAPI document: {}",
            plain_io(&e)
        )),
        _ => Ok(()),
    }
}

/// `GET /ready` over plain HTTP/1.1 on a std socket (the slim image has no curl).
fn healthcheck(host: &str, port: u16, timeout: Duration) -> Result<(), String> {
    let deadline = Instant::now() + timeout;
    let mut failure = format!("cannot find the address of {host}");
    for address in probe_addresses(host, port)? {
        match TcpStream::connect_timeout(&address, left(deadline)) {
            Ok(stream) => return ask_ready(stream, address, deadline),
            Err(e) => failure = format!("cannot connect to {address}: {}", plain_io(&e)),
        }
    }
    Err(failure)
}

/// Where to knock: the configured host, except that an address meaning "every interface" is
/// reached through the loopback.
fn probe_addresses(host: &str, port: u16) -> Result<Vec<SocketAddr>, String> {
    let host = host.trim_start_matches('[').trim_end_matches(']');
    let loopback = |ip: IpAddr| SocketAddr::new(ip, port);
    match host.parse::<IpAddr>() {
        Ok(IpAddr::V4(ip)) if ip.is_unspecified() => Ok(vec![loopback(Ipv4Addr::LOCALHOST.into())]),
        // A server on :: usually takes IPv4 too; try both.
        Ok(IpAddr::V6(ip)) if ip.is_unspecified() => Ok(vec![
            loopback(Ipv6Addr::LOCALHOST.into()),
            loopback(Ipv4Addr::LOCALHOST.into()),
        ]),
        Ok(ip) => Ok(vec![SocketAddr::new(ip, port)]),
        Err(_) if host.is_empty() => Ok(vec![loopback(Ipv4Addr::LOCALHOST.into())]),
        Err(_) => (host, port)
            .to_socket_addrs()
            .map(Iterator::collect)
            .map_err(|e| format!("cannot find the address of {host}: {}", plain_io(&e))),
    }
}

fn ask_ready(mut stream: TcpStream, address: SocketAddr, deadline: Instant) -> Result<(), String> {
    let url = format!("http://{address}/ready");
    let io_failure = |e: std::io::Error| format!("no answer from {url}: {}", plain_io(&e));
    stream
        .set_write_timeout(Some(left(deadline)))
        .map_err(io_failure)?;
    let request = format!(
        "GET /ready HTTP/1.1\r\nHost: {address}\r\nUser-Agent: parlor-healthcheck\r\n\
         Accept: application/json\r\nConnection: close\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).map_err(io_failure)?;
    // The status line is all we need; read until it is whole.
    let mut head = Vec::new();
    let mut chunk = [0u8; 512];
    while !head.windows(2).any(|w| w == b"\r\n") && head.len() < 8192 {
        stream
            .set_read_timeout(Some(left(deadline)))
            .map_err(io_failure)?;
        match stream.read(&mut chunk) {
            Ok(0) => break,
            Ok(n) => head.extend_from_slice(&chunk[..n]),
            Err(e) if e.kind() == ErrorKind::Interrupted => continue,
            Err(e) => return Err(io_failure(e)),
        }
    }
    match status_of(&head) {
        Some((200, _)) => Ok(()),
        Some((_, line)) => Err(format!("{url} answered {line}")),
        None if head.is_empty() => Err(format!("{url} closed the connection without answering")),
        None => Err(format!("{url} did not answer in HTTP")),
    }
}

/// The status code of an HTTP/1.x answer and its status line's words after the version
/// (`503 Service Unavailable`).
fn status_of(head: &[u8]) -> Option<(u16, String)> {
    let text = String::from_utf8_lossy(head);
    let line = text.split("\r\n").next()?;
    let rest = line.strip_prefix("HTTP/1.")?.split_once(' ')?.1.trim();
    let code = rest.get(..3)?.parse().ok()?;
    Some((code, rest.to_owned()))
}

/// The time left until `deadline`; never zero, which sockets refuse as a timeout.
fn left(deadline: Instant) -> Duration {
    deadline
        .saturating_duration_since(Instant::now())
        .max(Duration::from_millis(1))
}

/// A message on one line, whatever a database driver put in it.
fn one_line(text: &str) -> String {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_status_line_is_read() {
        assert_eq!(
            status_of(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n"),
            Some((200, "200 OK".into()))
        );
        assert_eq!(
            status_of(b"HTTP/1.0 503 Service Unavailable\r\n"),
            Some((503, "503 Service Unavailable".into()))
        );
        assert_eq!(status_of(b"SSH-2.0-OpenSSH\r\n"), None);
        assert_eq!(status_of(b""), None);
        assert_eq!(status_of(b"HTTP/1.1 2"), None);
    }

    #[test]
    fn every_interface_is_knocked_at_through_the_loopback() {
        let v4: SocketAddr = "127.0.0.1:8080".parse().unwrap();
        let v6: SocketAddr = "[::1]:8080".parse().unwrap();
        assert_eq!(probe_addresses("0.0.0.0", 8080).unwrap(), vec![v4]);
        assert_eq!(probe_addresses("::", 8080).unwrap(), vec![v6, v4]);
        assert_eq!(probe_addresses("[::]", 8080).unwrap(), vec![v6, v4]);
        assert_eq!(probe_addresses("127.0.0.1", 8080).unwrap(), vec![v4]);
        assert_eq!(probe_addresses("::1", 8080).unwrap(), vec![v6]);
        assert!(!probe_addresses("localhost", 8080).unwrap().is_empty());
    }

    #[test]
    #[cfg(target_os = "linux")]
    fn errors_are_plain_words_on_one_line() {
        let refused = std::io::Error::from_raw_os_error(111);
        assert_eq!(plain_io(&refused), "connection refused");
        assert_eq!(one_line("a\n  b\r\n\nc"), "a b c");
    }
}
