//! The `layout_settings` table: one row per user, created by the first save.

use surrealdb::Surreal;
use surrealdb::engine::any::Any;

use crate::StoreError;
use crate::error::checked;
use crate::model::LayoutSettings;
use crate::retry::retrying;

const FIELDS: &str = "map_color_index, smoothen_index, threshold_value, contours_enabled, is3_dmode, camera_position, \
    manual_scale, manual_scale_value, pressure_unit ?? 'mmHg' AS pressure_unit";

/// The layout settings of one company's users.
pub struct Layouts<'a> {
    pub(crate) db: &'a Surreal<Any>,
    pub(crate) company: &'a str,
}

impl Layouts<'_> {
    /// The user's saved settings, if any.
    pub async fn get(&self, user_id: &str) -> Result<Option<LayoutSettings>, StoreError> {
        let mut response = self
            .db
            .query(format!(
                "SELECT {FIELDS} FROM layout_settings WHERE user = type::record('user', $user) \
                 AND company = type::record('company', $company) LIMIT 1"
            ))
            .bind(("user", user_id.to_owned()))
            .bind(("company", self.company.to_owned()))
            .await?;
        Ok(response.take::<Vec<LayoutSettings>>(0)?.into_iter().next())
    }

    /// Saves the user's settings: the first save creates the row, later saves update it.
    /// Returns whether the row was created.
    pub async fn save(&self, user_id: &str, settings: &LayoutSettings) -> Result<bool, StoreError> {
        retrying(|| async move {
            let response = self
                .db
                .query(
                    "BEGIN TRANSACTION;
                     LET $company_ref = type::record('company', $company);
                     LET $user_ref = (SELECT VALUE id FROM type::record('user', $user) WHERE company = $company_ref)[0];
                     IF $user_ref = NONE { THROW 'notFound' };
                     LET $existing = (SELECT VALUE id FROM layout_settings WHERE user = $user_ref LIMIT 1)[0];
                     IF $existing = NONE {
                         CREATE layout_settings CONTENT { user: $user_ref, company: $company_ref, map_color_index: $s.map_color_index,
                            smoothen_index: $s.smoothen_index, threshold_value: $s.threshold_value,
                            contours_enabled: $s.contours_enabled, is3_dmode: $s.is3_dmode, camera_position: $s.camera_position,
                            manual_scale: $s.manual_scale, manual_scale_value: $s.manual_scale_value,
                            pressure_unit: $s.pressure_unit };
                     } ELSE {
                         UPDATE $existing SET map_color_index = $s.map_color_index, smoothen_index = $s.smoothen_index,
                            threshold_value = $s.threshold_value, contours_enabled = $s.contours_enabled, is3_dmode = $s.is3_dmode,
                            camera_position = $s.camera_position, manual_scale = $s.manual_scale,
                            manual_scale_value = $s.manual_scale_value, pressure_unit = $s.pressure_unit;
                     };
                     RETURN $existing = NONE;
                     COMMIT TRANSACTION;",
                )
                .bind(("user", user_id.to_owned()))
                .bind(("company", self.company.to_owned()))
                .bind(("s", settings.clone()))
                .await?;
            let mut response = checked(response)?;
            let created: Option<bool> = response.take(6)?;
            Ok(created.unwrap_or(false))
        })
        .await
    }
}
