use clap::{Parser, Subcommand};
use parlor::{app::Application, config::Config, http::openapi, telemetry};

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
}

#[actix_web::main]
async fn main() -> std::io::Result<()> {
    let cli = Cli::parse();
    match cli.command.unwrap_or(Command::Serve) {
        Command::Openapi => {
            println!("{}", openapi::document_json());
            Ok(())
        }
        Command::Serve => {
            telemetry::init(&cli.config.log_format);
            let app = Application::build(cli.config)
                .await
                .map_err(|e| std::io::Error::other(e.to_string()))?;
            tracing::info!(address = %app.address(), "parlor is serving; Swagger UI at /docs/");
            app.run().await
        }
    }
}
