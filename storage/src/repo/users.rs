//! The `user` table: [`Accounts`] creates users and finds them by e-mail at sign-in; [`Users`]
//! reads one company's. Passwords are hashed here, so no caller can store one in clear.

use surrealdb::Surreal;
use surrealdb::engine::any::Any;

use crate::model::{User, UserCredentials};
use crate::retry::retrying;
use crate::{StoreError, new_id, password};

/// Account queries across the hub.
pub struct Accounts<'a> {
    pub(crate) db: &'a Surreal<Any>,
}

/// One company's users.
pub struct Users<'a> {
    pub(crate) db: &'a Surreal<Any>,
    pub(crate) company: &'a str,
}

impl Accounts<'_> {
    /// Creates a user in a company with an argon2-hashed password; returns the id.
    pub async fn create(&self, email: &str, plain_password: &str, role: i64, company_id: &str) -> Result<String, StoreError> {
        retrying(|| async move {
            let id = new_id();
            let password_hash = password::hash(plain_password)?;
            self.db
                .query(
                    "CREATE type::record('user', $id) SET email = $email, password_hash = $hash, role = $role, \
                     company = type::record('company', $company)",
                )
                .bind(("id", id.clone()))
                .bind(("email", email.to_lowercase()))
                .bind(("hash", password_hash))
                .bind(("role", role))
                .bind(("company", company_id.to_owned()))
                .await?
                .check()?;
            Ok(id)
        })
        .await
    }

    /// What login needs, by e-mail (case-insensitive).
    pub async fn credentials(&self, email: &str) -> Result<Option<UserCredentials>, StoreError> {
        let mut response = self
            .db
            .query(
                "SELECT record::id(id) AS id, email, password_hash, role, record::id(company) AS company_id \
                 FROM user WHERE email = $email LIMIT 1",
            )
            .bind(("email", email.to_lowercase()))
            .await?;
        Ok(response.take::<Vec<UserCredentials>>(0)?.into_iter().next())
    }
}

impl Users<'_> {
    /// A user of the company, by id.
    pub async fn get(&self, id: &str) -> Result<Option<User>, StoreError> {
        let mut response = self
            .db
            .query(
                "SELECT record::id(id) AS id, email, role, record::id(company) AS company_id \
                 FROM type::record('user', $id) WHERE company = type::record('company', $company)",
            )
            .bind(("id", id.to_owned()))
            .bind(("company", self.company.to_owned()))
            .await?;
        Ok(response.take::<Vec<User>>(0)?.into_iter().next())
    }

    /// The company's users, by e-mail.
    pub async fn list(&self) -> Result<Vec<User>, StoreError> {
        let mut response = self
            .db
            .query(
                "SELECT record::id(id) AS id, email, role, record::id(company) AS company_id \
                 FROM user WHERE company = type::record('company', $company) ORDER BY email",
            )
            .bind(("company", self.company.to_owned()))
            .await?;
        Ok(response.take(0)?)
    }
}
