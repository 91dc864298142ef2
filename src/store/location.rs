//! Which database a `DATABASE_URL` names, said without its secrets: for the start-up log and for
//! the sentence a failed start prints. A URL may carry a password (`postgres://user:secret@host/db`
//! or `?password=secret`); what is said here is built from the parts that are not secret (kind,
//! host, port, database name, file), never by trimming the URL, so no spelling of the password can
//! slip through.

use std::str::FromStr;

use sqlx::postgres::PgConnectOptions;
use sqlx::sqlite::SqliteConnectOptions;

/// Whether the URL names PostgreSQL.
pub(crate) fn is_postgres(url: &str) -> bool {
    url.starts_with("postgres://") || url.starts_with("postgresql://")
}

/// Whether the URL names SQLite.
pub(crate) fn is_sqlite(url: &str) -> bool {
    url.starts_with("sqlite:")
}

/// The kind and place of the database `url` names: `SQLite file /var/lib/parlor/parlor.db`,
/// `PostgreSQL database parlor at db:5432`. Never the user name or the password.
pub fn describe(url: &str) -> String {
    if is_postgres(url) {
        let Ok(options) = PgConnectOptions::from_str(url) else {
            return "PostgreSQL (the URL cannot be read)".into();
        };
        let place = match options.get_socket() {
            Some(dir) => format!("the socket in {}", dir.display()),
            None => format!("{}:{}", options.get_host(), options.get_port()),
        };
        match options.get_database() {
            Some(db) => format!("PostgreSQL database {db} at {place}"),
            // PostgreSQL then uses the database named after the user, which we do not repeat.
            None => format!("PostgreSQL at {place} (the user's default database)"),
        }
    } else if is_sqlite(url) {
        if url.contains(":memory:") || url.contains("mode=memory") {
            return "SQLite in memory".into();
        }
        let Ok(options) = SqliteConnectOptions::from_str(url) else {
            return "SQLite (the URL cannot be read)".into();
        };
        let file = options.get_filename();
        let file = std::env::current_dir()
            .map(|dir| dir.join(file))
            .unwrap_or_else(|_| file.to_path_buf());
        format!("SQLite file {}", file.display())
    } else {
        format!("an unsupported database ({})", scheme(url))
    }
}

/// The scheme of a URL (`mysql://…` → `mysql://`), or words saying there is none. Only a plain
/// scheme followed by `://` counts: in `user:secret@host` the part before `:` is a user name.
pub(crate) fn scheme(url: &str) -> String {
    match url.split_once("://") {
        Some((scheme, _))
            if !scheme.is_empty()
                && scheme.len() <= 20
                && scheme.starts_with(|c: char| c.is_ascii_alphabetic())
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '+' | '-' | '.')) =>
        {
            format!("{scheme}://")
        }
        _ => "no scheme".into(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SECRET: &str = "Tr0ub4dor&3";

    #[test]
    fn a_password_is_never_said() {
        for url in [
            "postgres://parlor:Tr0ub4dor&3@db:5432/parlor",
            "postgresql://parlor:Tr0ub4dor%263@db/parlor?sslmode=disable",
            "postgres://db:5433/parlor?user=parlor&password=Tr0ub4dor%263",
            "postgres://parlor:Tr0ub4dor&3@localhost/parlor?host=/run/postgresql",
            "postgres://parlor:Tr0ub4dor&3@/parlor?host=/run/postgresql",
            "postgres://parlor:Tr0ub4dor&3@db:5432",
            "postgres://parlor:Tr0ub4dor&3@db:notaport/parlor",
            "mysql://parlor:Tr0ub4dor&3@db/parlor",
            "parlor:Tr0ub4dor&3@db/parlor",
        ] {
            let said = describe(url);
            assert!(!said.contains(SECRET), "{url} → {said}");
            assert!(!said.contains("Tr0ub4dor"), "{url} → {said}");
            assert!(!said.contains("parlor:"), "{url} → {said}: names the user");
        }
    }

    #[test]
    fn postgres_is_named_by_host_port_and_database() {
        assert_eq!(
            describe("postgres://parlor:Tr0ub4dor&3@db:5432/games"),
            "PostgreSQL database games at db:5432"
        );
        assert_eq!(
            describe("postgres://u@localhost/games"),
            "PostgreSQL database games at localhost:5432"
        );
        assert_eq!(
            describe("postgres://u:p@db"),
            "PostgreSQL at db:5432 (the user's default database)"
        );
        assert_eq!(
            describe("postgres:///games?host=%2Frun%2Fpostgresql"),
            "PostgreSQL database games at the socket in /run/postgresql"
        );
    }

    #[test]
    fn sqlite_is_named_by_its_file() {
        assert_eq!(
            describe("sqlite:///var/lib/parlor/parlor.db"),
            "SQLite file /var/lib/parlor/parlor.db"
        );
        let relative = describe("sqlite://parlor.db");
        assert!(relative.starts_with("SQLite file /"), "{relative}");
        assert!(relative.ends_with("/parlor.db"), "{relative}");
        assert_eq!(describe("sqlite::memory:"), "SQLite in memory");
    }

    #[test]
    fn other_schemes_are_named_by_scheme_only() {
        assert_eq!(
            describe("mysql://u:p@db/x"),
            "an unsupported database (mysql://)"
        );
        assert_eq!(describe("u:p@db/x"), "an unsupported database (no scheme)");
        assert_eq!(describe(""), "an unsupported database (no scheme)");
    }
}
