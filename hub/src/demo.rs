//! Demo mode: the "Demo Clinic" company, its users and a device of every main kind, with
//! simulated devices connected over QUIC on loopback so a newcomer sees live maps at once; and
//! one small company per company variant (spec §1, §6), each with a staff login and its own
//! devices, so every variant can be seen.
//!
//! Seeding is idempotent (a restart on the same data directory reuses what exists). Devices are
//! registered as the REST registration registers them (`crate::domain::registration::create`:
//! a family in one transaction, its members named by the one rule). Device secrets are stored
//! only as hashes, so every demo start issues the demo devices new secrets and hands them
//! straight to the in-process simulators.

use std::net::SocketAddr;
use std::path::Path;
use std::sync::Arc;

use anyhow::Context;

pub use crate::auth::roles::{ROLE_ADMIN, ROLE_STAFF};
use crate::domain::DomainError;
use crate::domain::registration::{self, RegisteredDevice};
use mat_api::device::Registration;
use mat_protocol::device_type::DeviceType;
use storage::model::CompanyVariants;
use storage::{Store, StoreError, device_secret};
use tokio::sync::watch;
use tokio::task::JoinHandle;

/// The demo company.
pub const DEMO_COMPANY: &str = "Demo Clinic";
/// The demo user.
pub const DEMO_EMAIL: &str = "demo@example.com";
/// The demo user's password.
pub const DEMO_PASSWORD: &str = "demo1234";
/// The demo administrator.
pub const ADMIN_EMAIL: &str = "admin@example.com";
/// The demo administrator's password.
pub const ADMIN_PASSWORD: &str = "admin1234";

/// A demo device and, for the ones that stream, the secret issued at this start.
#[derive(Debug, Clone)]
pub struct DemoDevice {
    pub serial: String,
    pub device_type: String,
    pub secret: String,
}

/// A demo device; a Sensing Horse or Room Set gets its members by the registration's rule.
struct Planned {
    serial: &'static str,
    name: &'static str,
    device_type: DeviceType,
    room: &'static str,
    bed: &'static str,
}

const PLAN: &[Planned] = &[
    Planned { serial: DEMO_BED_SERIAL, name: "Bed 101-A", device_type: DeviceType::MattressMatIoT, room: "101", bed: "A" },
    Planned { serial: "DEMO-SEAT-01", name: "Chair 102", device_type: DeviceType::SeatingMatIoT, room: "102", bed: "Chair" },
    Planned { serial: "DEMO-SEATXL-01", name: "Wheelchair 103", device_type: DeviceType::SeatingMatIoTXL, room: "103", bed: "Wheelchair" },
    Planned { serial: "DEMO-PODOLOGY-01", name: "Podology plate", device_type: DeviceType::PodologyIoT, room: "Gait lab", bed: "Plate" },
    Planned { serial: "DEMO-FLOOR-01", name: "Floor 104", device_type: DeviceType::FloorMat, room: "104", bed: "Floor" },
    Planned { serial: "DEMO-REHAB-01", name: "Rehab platform", device_type: DeviceType::RehabMat, room: "Rehab", bed: "Platform" },
    Planned { serial: "DEMO-SEATPOS-01", name: "Chair 106", device_type: DeviceType::SeatingMat, room: "106", bed: "Chair" },
    Planned { serial: "DEMO-FORCE-01", name: "Force plate", device_type: DeviceType::ForceMat, room: "Rehab", bed: "Force" },
    Planned { serial: "DEMO-HORSE-01", name: "Saddle sensor", device_type: DeviceType::SensingHorse, room: "Stable", bed: "Saddle" },
    Planned { serial: ROOM_SET_SERIAL, name: "Room 105", device_type: DeviceType::RoomSet, room: "105", bed: "Room set" },
    Planned { serial: STILL_BED_SERIAL, name: "Bed 107", device_type: DeviceType::MattressMatIoT, room: "107", bed: "A" },
];

/// The demo's room set.
pub const ROOM_SET_SERIAL: &str = "DEMO-ROOM-01";
/// Bed 101-A, whose patient turns and leaves the bed on [`demo_bed_script`]'s cycle.
pub const DEMO_BED_SERIAL: &str = "DEMO-MATTRESS-01";
/// The demo bed whose patient lies still ([`still_bed_script`]).
pub const STILL_BED_SERIAL: &str = "DEMO-MATTRESS-02";
/// The still bed's repositioning interval: the shortest the API takes.
pub const STILL_BED_INTERVAL_MINUTES: i64 = 15;

/// The password of every variant company's demo login.
pub const VARIANT_PASSWORD: &str = "demo1234";

/// A demo company showing one company variant, with a staff login and its devices.
pub struct VariantCompany {
    pub name: &'static str,
    pub email: &'static str,
    pub variants: CompanyVariants,
    devices: &'static [Planned],
}

const NONE_ON: CompanyVariants = CompanyVariants { hide_centre_of_pressure: false, fitness: false, seating_labels: false };

/// One company per variant. The variants are set when the company is created; an administrator
/// may switch them later and a restart keeps that choice.
pub const VARIANT_COMPANIES: &[VariantCompany] = &[
    VariantCompany {
        name: "Demo Wheelchair",
        email: "wheelchair@example.com",
        variants: CompanyVariants { hide_centre_of_pressure: true, ..NONE_ON },
        devices: &[Planned {
            serial: "DEMO-WC-SEAT-01",
            name: "Wheelchair 201",
            device_type: DeviceType::SeatingMatIoT,
            room: "201",
            bed: "Wheelchair",
        }],
    },
    VariantCompany {
        name: "Demo Fitness",
        email: "fitness@example.com",
        variants: CompanyVariants { fitness: true, ..NONE_ON },
        devices: &[Planned {
            serial: "DEMO-FIT-01",
            name: "Fitness mat 1",
            device_type: DeviceType::FitnessMat,
            room: "Gym",
            bed: "Mat 1",
        }],
    },
    VariantCompany {
        name: "Demo Seating",
        email: "seating@example.com",
        variants: CompanyVariants { seating_labels: true, ..NONE_ON },
        devices: &[
            Planned { serial: "DEMO-SIT-01", name: "Chair 301", device_type: DeviceType::SeatingMatIoT, room: "301", bed: "Chair A" },
            Planned { serial: "DEMO-SIT-02", name: "Chair 302", device_type: DeviceType::SeatingMatIoT, room: "302", bed: "Chair B" },
        ],
    },
];

/// Ensures the demo company and users exist; returns the company id.
pub async fn seed_accounts(store: &Store) -> Result<String, StoreError> {
    let company = match store.hub_wide().companies().find_by_name(DEMO_COMPANY).await? {
        Some(company) => company.id,
        None => store.hub_wide().companies().create(DEMO_COMPANY, "1 Demo Street, Springfield").await?,
    };
    for (email, password, role) in [(DEMO_EMAIL, DEMO_PASSWORD, ROLE_STAFF), (ADMIN_EMAIL, ADMIN_PASSWORD, ROLE_ADMIN)] {
        if store.hub_wide().accounts().credentials(email).await?.is_none() {
            store.hub_wide().accounts().create(email, password, role, &company).await?;
        }
    }
    Ok(company)
}

/// Ensures a variant company and its login exist; returns the company id.
async fn seed_variant_company(store: &Store, planned: &VariantCompany) -> Result<String, StoreError> {
    let company = match store.hub_wide().companies().find_by_name(planned.name).await? {
        Some(company) => company.id,
        None => {
            let id = store.hub_wide().companies().create(planned.name, "").await?;
            store.company(&id).profile().set_variants(&planned.variants).await?;
            id
        }
    };
    if store.hub_wide().accounts().credentials(planned.email).await?.is_none() {
        store.hub_wide().accounts().create(planned.email, VARIANT_PASSWORD, ROLE_STAFF, &company).await?;
    }
    Ok(company)
}

/// Seeds everything and issues fresh secrets to the demo devices that stream.
pub async fn seed(store: &Store) -> Result<Vec<DemoDevice>, DemoSeedError> {
    let company = seed_accounts(store).await?;
    let mut streaming = seed_devices(store, &company, PLAN).await?;
    for planned in VARIANT_COMPANIES {
        let company = seed_variant_company(store, planned).await?;
        streaming.extend(seed_devices(store, &company, planned.devices).await?);
    }
    Ok(streaming)
}

/// Why seeding the demo failed.
#[derive(Debug, thiserror::Error)]
pub enum DemoSeedError {
    #[error(transparent)]
    Store(#[from] StoreError),
    #[error("registering a demo device: {0}")]
    Registration(#[from] DomainError),
}

/// The registration of a planned demo device (two sub-devices for a horse).
fn registration(planned: &Planned) -> Registration {
    Registration {
        hardware_serial: planned.serial.into(),
        name: planned.name.into(),
        health_system: "Demo Health".into(),
        building: "Main".into(),
        floor: "1".into(),
        room: planned.room.into(),
        bed: planned.bed.into(),
        device_type: planned.device_type,
        number_of_subdevices: 2,
    }
}

/// Registers the planned devices that do not exist yet (with fresh secrets) and issues new
/// secrets to those that do; answers every streaming device, members in order after their
/// parent's place.
async fn seed_devices(store: &Store, company: &str, plan: &[Planned]) -> Result<Vec<DemoDevice>, DemoSeedError> {
    let mut streaming = Vec::new();
    for planned in plan {
        match store.hub_wide().devices().by_serial(planned.serial).await? {
            None => {
                let registered = registration::create(store.hub_wide(), company, &registration(planned)).await?;
                if planned.serial == STILL_BED_SERIAL {
                    // Set once, when created: an administrator's later choice is kept.
                    store
                        .company(company)
                        .device_confs()
                        .set_repositioning_minutes(&registered.id, Some(STILL_BED_INTERVAL_MINUTES))
                        .await?;
                }
                streaming.extend(registered.streaming().map(demo_device));
            }
            Some(existing) if existing.member_ids.is_empty() => {
                streaming.push(issue_secret(store, company, &existing.id, &existing.hardware_serial, &existing.device_type).await?);
            }
            Some(existing) => {
                for member_id in &existing.member_ids {
                    let Some(member) = store.company(company).devices().get(member_id).await? else { continue };
                    streaming.push(issue_secret(store, company, &member.id, &member.hardware_serial, &member.device_type).await?);
                }
            }
        }
    }
    Ok(streaming)
}

/// A newly registered streaming device as a demo device.
fn demo_device(device: &RegisteredDevice) -> DemoDevice {
    DemoDevice {
        serial: device.hardware_serial.clone(),
        device_type: device.device_type.name().to_owned(),
        secret: device.device_secret.clone().unwrap_or_default(),
    }
}

async fn issue_secret(store: &Store, company: &str, id: &str, serial: &str, device_type: &str) -> Result<DemoDevice, StoreError> {
    let secret = device_secret::generate();
    store.company(company).devices().set_secret_hash(id, &device_secret::hash(&secret)).await?;
    Ok(DemoDevice { serial: serial.into(), device_type: device_type.into(), secret })
}

/// How the demo's simulated patients use their beds, so every alarm can be seen (issue 23): away
/// for a minute, well past the 30 s absence delay (a Missing alarm, then back in bed), and each
/// posture held past the repositioning clock's one-minute turn confirmation, so the turns the
/// device log shows are the turns the clock counts. The simulator's own default (20 s away,
/// postures of 30–60 s) raised no Missing alarm in 70 minutes of demo.
pub fn demo_bed_script() -> simulator::synth::BedScript {
    use std::time::Duration;
    simulator::synth::BedScript {
        empty: Duration::from_secs(60),
        lie_down: Duration::from_secs(4),
        supine: Duration::from_secs(150),
        turn: Duration::from_secs(4),
        left_lateral: Duration::from_secs(90),
        right_lateral: Duration::from_secs(90),
        prone: Duration::from_secs(75),
        leave: Duration::from_secs(4),
    }
}

/// The room set's sensors share one patient (issue 23): bed, then chair, then floor, one at a
/// time ([`simulator::synth::room_set_scripts`]); a member is known by its serial's suffix
/// (`domain::device_family`).
pub fn room_set_member_script(serial: &str) -> Option<simulator::synth::PresenceScript> {
    let [bed, seat, floor] = simulator::synth::room_set_scripts();
    if !serial.starts_with(ROOM_SET_SERIAL) {
        return None;
    }
    match &serial[ROOM_SET_SERIAL.len()..] {
        "-BED" => Some(bed),
        "-SEAT" => Some(seat),
        "-FLOOR" => Some(floor),
        _ => None,
    }
}

/// The demo bed whose patient lies still (issue 23: a demo that shows every alarm): supine for
/// hours, past the bed's 15-minute repositioning interval (the shortest the API takes), so an
/// Ulcer Risk alarm is raised 15 minutes after the demo starts, with its reason.
pub fn still_bed_script() -> simulator::synth::BedScript {
    use std::time::Duration;
    simulator::synth::BedScript { empty: Duration::from_secs(5), supine: Duration::from_secs(6 * 3_600), ..demo_bed_script() }
}

/// DEMO AND TESTS ONLY (`--demo-bed-leaves-after`): where in `script`'s cycle a simulated bed
/// starts so that its patient begins to get out of bed `leaves_after` after the simulator starts
/// (and then keeps the cycle: away, back in bed, turns, out again a cycle later). A browser tour
/// that needs Bed 101-A empty (a Missing alarm, zeroing the empty mat) sets it instead of waiting
/// up to a whole cycle for the point its serial sets.
pub fn start_leaving_after(script: &simulator::synth::BedScript, leaves_after: std::time::Duration) -> std::time::Duration {
    use std::time::Duration;
    let script = script.script();
    let cycle = script.cycle().as_millis();
    if cycle == 0 {
        return Duration::ZERO;
    }
    let leaving = script.steps().iter().position(|(phase, _)| *phase == simulator::synth::BedPhase::Leaving).unwrap_or(0);
    let leaving_at = script.start_of(leaving).as_millis();
    let offset = (leaving_at + cycle - leaves_after.as_millis() % cycle) % cycle;
    Duration::from_millis(offset as u64)
}

/// Starts one simulated device per demo device, over one shared QUIC endpoint. With
/// `demo_bed_leaves_after` (demo and tests only), Bed 101-A's patient starts getting out of bed
/// that long after the start ([`start_leaving_after`]).
pub fn start_simulators(
    devices: Vec<DemoDevice>,
    quic: SocketAddr,
    cert: &Path,
    demo_bed_leaves_after: Option<std::time::Duration>,
    stop: watch::Receiver<bool>,
) -> anyhow::Result<Vec<JoinHandle<()>>> {
    let client =
        simulator::QuicClient::new(simulator::Trust::PemFile(cert.to_path_buf())).context("creating the simulators' QUIC endpoint")?;
    let stats = Arc::new(simulator::SimStats::default());
    let mut tasks = Vec::new();
    for device in devices {
        let mut spec = simulator::DeviceSpec::new(device.serial.clone(), device.secret, &device.device_type)
            .with_context(|| format!("no simulator preset for {}", device.device_type))?;
        if let simulator::Scenario::BedOccupant(script) = &mut spec.scenario {
            *script = if device.serial == STILL_BED_SERIAL { still_bed_script() } else { demo_bed_script() };
            if let Some(leaves_after) = demo_bed_leaves_after.filter(|_| device.serial == DEMO_BED_SERIAL) {
                spec.time_offset = start_leaving_after(script, leaves_after);
            }
        }
        if let Some(script) = room_set_member_script(&device.serial) {
            spec.scenario = simulator::Scenario::ForceChannels(script);
        }
        let transport = simulator::Transport::QuicShared { client: client.clone(), addr: quic, server_name: "localhost".into() };
        let (stats, stop) = (stats.clone(), stop.clone());
        tasks.push(tokio::spawn(async move {
            if let Err(error) = simulator::run_device(spec, transport, stats, stop).await {
                tracing::error!(serial = %device.serial, %error, "demo simulator stopped");
            }
        }));
    }
    Ok(tasks)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn demo_patients_stay_away_long_enough_for_missing_and_hold_postures_long_enough_to_count() {
        use mat_core::machine::patient_status::DEFAULT_ABSENCE_DELAY;
        use mat_core::machine::pressure_ulcer::UlcerConfig;
        let script = demo_bed_script();
        // Missing needs the absence delay plus the empty bed's detection; a quarter more is margin.
        assert!(script.empty >= DEFAULT_ABSENCE_DELAY * 2, "{:?} away", script.empty);
        let confirmation = UlcerConfig::default().turn_confirmation;
        for held in [script.supine, script.left_lateral, script.right_lateral, script.prone] {
            assert!(held > confirmation + std::time::Duration::from_secs(10), "a posture of {held:?} is no turn");
        }
    }

    #[test]
    fn a_bed_started_to_leave_after_a_delay_is_leaving_then_and_occupied_just_before() {
        use simulator::synth::BedPhase;
        use std::time::Duration;
        let script = demo_bed_script();
        let cycle = script.script();
        for secs in [0, 1, 45, 90, 400, 484, 485, 486, 1_000] {
            let leaves_after = Duration::from_secs(secs);
            let offset = start_leaving_after(&script, leaves_after);
            assert!(offset < cycle.cycle(), "{secs} s: offset {offset:?}");
            let at = |t: Duration| cycle.at(t + offset).unwrap().phase;
            assert_eq!(at(leaves_after), BedPhase::Leaving, "{secs} s");
            assert_eq!(at(leaves_after + script.leave), BedPhase::Empty, "{secs} s: away once out of bed");
            if let Some(before) = leaves_after.checked_sub(Duration::from_secs(1)) {
                assert_eq!(at(before), BedPhase::Prone, "{secs} s: in bed until then");
            }
            // And the cycle goes on: out of bed again one cycle later.
            assert_eq!(at(leaves_after + cycle.cycle()), BedPhase::Leaving, "{secs} s");
        }
    }

    #[test]
    fn the_still_bed_stays_past_its_interval_and_the_room_sets_sensors_share_one_patient() {
        let script = still_bed_script();
        assert!(script.supine >= std::time::Duration::from_secs(STILL_BED_INTERVAL_MINUTES as u64 * 60 * 2));
        assert!(room_set_member_script("DEMO-ROOM-01-BED").is_some());
        assert!(room_set_member_script("DEMO-ROOM-01-FLOOR").is_some());
        assert_eq!(room_set_member_script("DEMO-ROOM-01"), None, "the parent streams nothing");
        assert_eq!(room_set_member_script("DEMO-FORCE-01"), None, "the force plate keeps its own cycle");
        let [bed, seat, floor] = simulator::synth::room_set_scripts();
        assert_eq!(
            [
                room_set_member_script("DEMO-ROOM-01-BED"),
                room_set_member_script("DEMO-ROOM-01-SEAT"),
                room_set_member_script("DEMO-ROOM-01-FLOOR")
            ],
            [Some(bed), Some(seat), Some(floor)]
        );
    }

    #[tokio::test]
    async fn seeding_twice_keeps_one_of_everything_and_rotates_secrets() {
        let store = Store::memory().await.unwrap();
        let first = seed(&store).await.unwrap();
        let second = seed(&store).await.unwrap();
        assert_eq!(first.len(), second.len());
        let company = store.hub_wide().companies().find_by_name(DEMO_COMPANY).await.unwrap().unwrap();
        let devices = store.company(&company.id).devices().list().await.unwrap();
        // 9 single devices + horse (1 + 2) + room set (1 + 3).
        assert_eq!(devices.len(), 16);
        // ...and the variant companies' 4 devices.
        assert_eq!(first.len(), 9 + 2 + 3 + 4);
        // The still bed's interval is the shortest the API takes, so its Ulcer Risk alarm comes soon.
        let still = devices.iter().find(|d| d.hardware_serial == STILL_BED_SERIAL).expect("the still bed");
        let confs = store.company(&company.id).device_confs().list().await.unwrap();
        let conf = confs.iter().find(|c| c.device_id == still.id).expect("its configuration");
        assert_eq!(conf.repositioning_minutes, Some(STILL_BED_INTERVAL_MINUTES));
        assert!(crate::http::devices::REPOSITIONING_MINUTES.contains(&STILL_BED_INTERVAL_MINUTES));
        let serial = &first[0].serial;
        let stored = store.hub_wide().devices().by_serial(serial).await.unwrap().unwrap().secret_hash;
        assert!(!device_secret::verify(&first[0].secret, &stored), "the first start's secret was replaced");
        assert!(device_secret::verify(&second[0].secret, &stored));
        let creds = store.hub_wide().accounts().credentials(DEMO_EMAIL).await.unwrap().unwrap();
        assert!(storage::password::verify(DEMO_PASSWORD, &creds.password_hash));
        assert_eq!(creds.role, ROLE_STAFF);
        assert_eq!(store.hub_wide().accounts().credentials(ADMIN_EMAIL).await.unwrap().unwrap().role, ROLE_ADMIN);
        assert_eq!(company.variants, CompanyVariants::default(), "the main demo company has no variant");
    }

    #[tokio::test]
    async fn each_variant_company_shows_its_variant_and_keeps_an_administrators_later_choice() {
        let store = Store::memory().await.unwrap();
        seed(&store).await.unwrap();
        let mut seen = CompanyVariants::default();
        for planned in VARIANT_COMPANIES {
            let company = store.hub_wide().companies().find_by_name(planned.name).await.unwrap().unwrap();
            assert_eq!(company.variants, planned.variants);
            seen.hide_centre_of_pressure |= company.variants.hide_centre_of_pressure;
            seen.fitness |= company.variants.fitness;
            seen.seating_labels |= company.variants.seating_labels;
            let user = store.hub_wide().accounts().credentials(planned.email).await.unwrap().unwrap();
            assert_eq!((user.company_id.as_str(), user.role), (company.id.as_str(), ROLE_STAFF));
            assert!(!store.company(&company.id).devices().list().await.unwrap().is_empty());
        }
        assert_eq!(seen, CompanyVariants { hide_centre_of_pressure: true, fitness: true, seating_labels: true }, "every variant is seeded");
        let first = store.hub_wide().companies().find_by_name(VARIANT_COMPANIES[0].name).await.unwrap().unwrap();
        store.company(&first.id).profile().set_variants(&CompanyVariants::default()).await.unwrap();
        seed(&store).await.unwrap();
        assert_eq!(store.hub_wide().companies().get(&first.id).await.unwrap().unwrap().variants, CompanyVariants::default());
    }
}
