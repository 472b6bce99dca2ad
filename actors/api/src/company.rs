//! Company and branding (spec §5): name 1–25 characters, address at most 200, a logo of at most
//! 1 MiB that really is a PNG or a JPEG (checked by its bytes, not its name), page colour
//! `#rrggbb` (default `#f5f5f5`), layout number (default 2).

use base64::Engine;
use serde::Deserialize;

use super::{Invalid, char_len};

/// Company name limit.
pub const NAME_MAX: usize = 25;
/// Address limit.
pub const ADDRESS_MAX: usize = 200;
/// Logo limit in bytes (1 MiB, spec §5).
pub const LOGO_MAX_BYTES: usize = 1_048_576;
/// Colour of a new company.
pub const DEFAULT_PAGE_COLOR: &str = "#f5f5f5";
/// Layout of a new company.
pub const DEFAULT_LAYOUT_NUMBER: i64 = 2;
/// Largest layout number (the client has layouts 1–4).
pub const LAYOUT_NUMBER_MAX: i64 = 4;

/// A company as the admin panel or branding page sends it. `company` and `companyName` are both
/// accepted for the name, `address` and `location` for the address.
#[derive(Debug, Clone, Default, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "camelCase", default)]
#[schemars(extend("required" = ["companyName"]))]
pub struct CompanyInput {
    #[schemars(skip)]
    pub company: Option<String>,
    #[schemars(with = "String", length(max = NAME_MAX), pattern(super::schema::NOT_BLANK))]
    pub company_name: Option<String>,
    #[schemars(length(max = ADDRESS_MAX))]
    pub address: Option<String>,
    #[schemars(skip)]
    pub location: Option<String>,
    #[schemars(pattern(super::schema::LOGO))]
    pub logo: Option<String>,
    #[schemars(pattern(super::schema::PAGE_COLOR))]
    pub page_color: Option<String>,
    #[schemars(range(min = 1, max = LAYOUT_NUMBER_MAX))]
    #[serde(deserialize_with = "super::lenient::optional_integer")]
    pub layout_number: Option<i64>,
}

impl CompanyInput {
    fn name(&self) -> String {
        self.company_name.as_deref().or(self.company.as_deref()).unwrap_or("").trim().to_owned()
    }

    fn address(&self) -> String {
        self.address.as_deref().or(self.location.as_deref()).unwrap_or("").trim().to_owned()
    }
}

/// A company's branding (spec §3: companyName, logo, address, pageColor, layoutNumber).
#[derive(Debug, Clone, PartialEq, Default)]
pub struct CompanyBranding {
    pub company_name: String,
    pub address: String,
    /// A `data:image/png;base64,…` or `data:image/jpeg;base64,…` URL, already checked.
    pub logo: Option<String>,
    pub page_color: String,
    pub layout_number: i64,
}

/// Checks a company and returns its branding, the logo as a `data:` URL of its real type.
pub fn validate_company(input: &CompanyInput) -> Result<CompanyBranding, Invalid> {
    let company_name = input.name();
    if company_name.is_empty() {
        return Err(Invalid::new("companyNameRequired", "the company name is required"));
    }
    if char_len(&company_name) > NAME_MAX {
        return Err(Invalid::new("companyNameTooLong", format!("Maximum {NAME_MAX} characters allowed")));
    }
    let address = input.address();
    if char_len(&address) > ADDRESS_MAX {
        return Err(Invalid::new("addressTooLong", format!("the address is at most {ADDRESS_MAX} characters")));
    }
    // Absent or `null` is the default; a colour that is sent is `#rrggbb` (an empty one is refused,
    // as the document's pattern says).
    let page_color = input.page_color.as_deref().map(str::trim).unwrap_or(DEFAULT_PAGE_COLOR).to_lowercase();
    if !(page_color.len() == 7 && page_color.starts_with('#') && page_color[1..].chars().all(|c| c.is_ascii_hexdigit())) {
        return Err(Invalid::new("invalidPageColor", "the page colour is #rrggbb"));
    }
    let layout_number = input.layout_number.unwrap_or(DEFAULT_LAYOUT_NUMBER);
    if !(1..=LAYOUT_NUMBER_MAX).contains(&layout_number) {
        return Err(Invalid::new("invalidLayoutNumber", format!("the layout number is 1 to {LAYOUT_NUMBER_MAX}")));
    }
    let logo = match input.logo.as_deref().map(str::trim).filter(|l| !l.is_empty()) {
        None => None,
        Some(logo) => Some(validate_logo(logo)?),
    };
    Ok(CompanyBranding { company_name, address, logo, page_color, layout_number })
}

/// The image type of a logo, from its first bytes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogoType {
    Png,
    Jpeg,
}

impl LogoType {
    fn sniff(bytes: &[u8]) -> Option<LogoType> {
        if bytes.starts_with(&[0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a]) {
            Some(LogoType::Png)
        } else if bytes.starts_with(&[0xff, 0xd8, 0xff]) {
            Some(LogoType::Jpeg)
        } else {
            None
        }
    }

    fn mime(self) -> &'static str {
        match self {
            LogoType::Png => "image/png",
            LogoType::Jpeg => "image/jpeg",
        }
    }
}

/// Checks a logo sent as a `data:` URL or bare base64; returns a `data:` URL of its real type.
pub fn validate_logo(logo: &str) -> Result<String, Invalid> {
    let not_image = || Invalid::new("logoNotImage", "The file is not a valid image. Only PNG, JPG, and JPEG formats are supported.");
    let payload = match logo.strip_prefix("data:") {
        Some(rest) => rest.split_once(";base64,").map(|(_, data)| data).ok_or_else(not_image)?,
        None => logo,
    };
    // Reject before decoding what cannot fit: base64 is 4 characters per 3 bytes.
    if payload.len() > LOGO_MAX_BYTES.div_ceil(3) * 4 + 4 {
        return Err(Invalid::too_large("logoTooLarge", "File size is too large (maximum 1 MB)."));
    }
    let bytes = base64::engine::general_purpose::STANDARD.decode(payload.trim()).map_err(|_| not_image())?;
    if bytes.len() > LOGO_MAX_BYTES {
        return Err(Invalid::too_large("logoTooLarge", "File size is too large (maximum 1 MB)."));
    }
    let kind = LogoType::sniff(&bytes).ok_or_else(not_image)?;
    Ok(format!("data:{};base64,{}", kind.mime(), base64::engine::general_purpose::STANDARD.encode(&bytes)))
}

#[cfg(test)]
mod tests {
    use super::*;

    const PNG_HEADER: [u8; 8] = [0x89, b'P', b'N', b'G', 0x0d, 0x0a, 0x1a, 0x0a];

    fn b64(bytes: &[u8]) -> String {
        base64::engine::general_purpose::STANDARD.encode(bytes)
    }

    fn sized(header: &[u8], total: usize) -> Vec<u8> {
        let mut bytes = header.to_vec();
        bytes.resize(total, 0);
        bytes
    }

    fn company(json: serde_json::Value) -> Result<CompanyBranding, Invalid> {
        validate_company(&serde_json::from_value(json).unwrap())
    }

    #[test]
    fn a_new_company_gets_the_spec_defaults() {
        let branding = company(serde_json::json!({"company": "Clínica Sur"})).unwrap();
        assert_eq!((branding.page_color.as_str(), branding.layout_number, branding.logo), ("#f5f5f5", 2, None));
    }

    #[test]
    fn the_name_is_1_to_25_characters_and_the_address_at_most_200() {
        assert_eq!(company(serde_json::json!({"company": "ñ".repeat(25)})).unwrap().company_name.chars().count(), 25);
        assert_eq!(company(serde_json::json!({"company": "n".repeat(26)})).unwrap_err().key, "companyNameTooLong");
        assert_eq!(company(serde_json::json!({"company": "  "})).unwrap_err().key, "companyNameRequired");
        assert!(company(serde_json::json!({"companyName": "A", "location": "l".repeat(200)})).is_ok());
        assert_eq!(company(serde_json::json!({"companyName": "A", "address": "l".repeat(201)})).unwrap_err().key, "addressTooLong");
    }

    #[test]
    fn colour_and_layout_are_checked() {
        assert_eq!(company(serde_json::json!({"company": "A", "pageColor": "red"})).unwrap_err().key, "invalidPageColor");
        assert_eq!(company(serde_json::json!({"company": "A", "pageColor": "#A0B1C2"})).unwrap().page_color, "#a0b1c2");
        assert_eq!(company(serde_json::json!({"company": "A", "layoutNumber": 0})).unwrap_err().key, "invalidLayoutNumber");
        assert_eq!(
            company(serde_json::json!({"company": "A", "pageColor": ""})).unwrap_err().key,
            "invalidPageColor",
            "as its pattern says"
        );
        assert_eq!(company(serde_json::json!({"company": "A", "pageColor": null})).unwrap().page_color, DEFAULT_PAGE_COLOR);
    }

    #[test]
    fn a_logo_is_a_png_or_jpeg_by_content_of_at_most_1_mib() {
        let png = sized(&PNG_HEADER, 100);
        assert_eq!(validate_logo(&b64(&png)).unwrap(), format!("data:image/png;base64,{}", b64(&png)));
        // A JPEG labelled as PNG is stored as what it is.
        let jpeg = sized(&[0xff, 0xd8, 0xff, 0xe0], 100);
        assert!(validate_logo(&format!("data:image/png;base64,{}", b64(&jpeg))).unwrap().starts_with("data:image/jpeg;"));
        let gif = sized(b"GIF89a", 100);
        assert_eq!(validate_logo(&format!("data:image/png;base64,{}", b64(&gif))).unwrap_err().key, "logoNotImage");
        assert_eq!(validate_logo("data:image/png;base64,!!!").unwrap_err().key, "logoNotImage");
        assert!(validate_logo(&b64(&sized(&PNG_HEADER, LOGO_MAX_BYTES))).is_ok());
        let over = validate_logo(&b64(&sized(&PNG_HEADER, LOGO_MAX_BYTES + 1))).unwrap_err();
        assert_eq!((over.key, over.too_large), ("logoTooLarge", true));
    }
}
