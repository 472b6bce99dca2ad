//! The `company` table.

use surrealdb::engine::any::Any;
use surrealdb::Surreal;

use crate::model::Company;
use crate::{new_id, StoreError};

const FIELDS: &str = "record::id(id) AS id, company_name, address, logo, page_color, layout_number";

/// Company queries.
pub struct Companies<'a> {
    pub(crate) db: &'a Surreal<Any>,
}

impl Companies<'_> {
    /// Creates a company; returns its id.
    pub async fn create(&self, company_name: &str, address: &str) -> Result<String, StoreError> {
        let id = new_id();
        self.db
            .query("CREATE type::record('company', $id) SET company_name = $name, address = $address")
            .bind(("id", id.clone()))
            .bind(("name", company_name.to_owned()))
            .bind(("address", address.to_owned()))
            .await?
            .check()?;
        Ok(id)
    }

    /// The company with this name.
    pub async fn find_by_name(&self, company_name: &str) -> Result<Option<Company>, StoreError> {
        let mut response = self
            .db
            .query(format!("SELECT {FIELDS} FROM company WHERE company_name = $name LIMIT 1"))
            .bind(("name", company_name.to_owned()))
            .await?;
        Ok(response.take::<Vec<Company>>(0)?.into_iter().next())
    }

    /// The company with this id.
    pub async fn get(&self, id: &str) -> Result<Option<Company>, StoreError> {
        let mut response =
            self.db.query(format!("SELECT {FIELDS} FROM type::record('company', $id)")).bind(("id", id.to_owned())).await?;
        Ok(response.take::<Vec<Company>>(0)?.into_iter().next())
    }
}
