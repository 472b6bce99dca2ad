//! `hub create-admin`: the first administrator of a real deployment (the demo seeds
//! `admin@example.com`). Creates the company if it does not exist. Run it while the hub is
//! stopped (the embedded store admits one process).

use anyhow::Context;
use storage::Store;

use crate::auth::roles::ROLE_ADMIN;
use crate::config::{CreateAdminArgs, ServeConfig};
use mat_api::account::{AccountInput, validate_account};
use mat_api::company::{CompanyInput, validate_company};

/// Creates the administrator; returns (company id, user id).
pub async fn create_admin(store: &Store, args: &CreateAdminArgs) -> anyhow::Result<(String, String)> {
    let account = validate_account(&AccountInput { email: args.email.clone(), password: args.password.clone(), password_repeat: None })
        .map_err(|e| anyhow::anyhow!("{} ({})", e.message, e.key))?;
    let company_id = match store.hub_wide().companies().find_by_name(args.company.trim()).await? {
        Some(company) => company.id,
        None => {
            let branding = validate_company(&CompanyInput { company: Some(args.company.clone()), ..CompanyInput::default() })
                .map_err(|e| anyhow::anyhow!("{} ({})", e.message, e.key))?;
            store.hub_wide().companies().create_branded(&branding).await.context("creating the company")?
        }
    };
    let user_id = store
        .hub_wide()
        .accounts()
        .create(&account.email, &account.password, ROLE_ADMIN, &company_id)
        .await
        .context("creating the administrator")?;
    Ok((company_id, user_id))
}

/// Runs `hub create-admin`.
pub async fn run(config: &ServeConfig, args: &CreateAdminArgs) -> anyhow::Result<()> {
    let store = crate::app::open_store(config).await?;
    let (company_id, user_id) = create_admin(&store, args).await?;
    println!(
        "administrator {} (user {user_id}) created in company {} ({company_id})",
        args.email.trim().to_lowercase(),
        args.company.trim()
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn args(email: &str, password: &str) -> CreateAdminArgs {
        CreateAdminArgs { email: email.into(), password: password.into(), company: "General Hospital".into() }
    }

    #[tokio::test]
    async fn creates_an_administrator_and_the_company_once() {
        let store = Store::memory().await.unwrap();
        let (company, _) = create_admin(&store, &args("Root@Hospital.org", "longenough")).await.unwrap();
        let credentials = store.hub_wide().accounts().credentials("root@hospital.org").await.unwrap().unwrap();
        assert_eq!((credentials.role, credentials.company_id.as_str()), (ROLE_ADMIN, company.as_str()));
        let (again, _) = create_admin(&store, &args("second@hospital.org", "longenough")).await.unwrap();
        assert_eq!(again, company, "the existing company is reused");
        assert!(create_admin(&store, &args("root@hospital.org", "longenough")).await.is_err(), "duplicate e-mail");
        assert!(create_admin(&store, &args("third@hospital.org", "short")).await.is_err(), "short password");
    }
}
