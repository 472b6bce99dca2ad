//! Who watches what: one channel per device (live maps) and one per company (status changes).
//!
//! Channels outlive the actors that publish into them, so a restarted `MatActor` keeps its
//! viewers. Each channel keeps the latest picture, so a new viewer gets one at once.
//!
//! Messages here are encoded once per event for every viewer and only ever go to sessions: what a
//! device's state is, typed, is the [`LiveBoard`](crate::live_board::LiveBoard)'s to say. A
//! device's latest map is the board's own (the same `Arc`), and it is encoded only when someone
//! watches: a mat nobody watches costs no encoding and no second copy of its map.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::{Arc, Mutex, RwLock};

use bytes::Bytes;

use super::outbox::Outbox;
use super::relay::ClusterSeam;
use crate::browser::{PressureMapEvent, encode_event, encode_event_sized, events};
use crate::live_board::LiveMap;

/// Identifies one browser session.
pub type SessionId = u64;

/// The devices a session may follow, when not all of its company's (a paired ward screen: its
/// unit's devices).
pub type DeviceScope = Arc<HashSet<Arc<str>>>;

/// A session's outbox, as a channel knows it.
#[derive(Debug, Clone)]
pub struct Viewer {
    /// The session.
    pub session: SessionId,
    /// Where its messages go.
    pub outbox: Arc<Outbox>,
    /// The devices whose statuses and events it receives; `None` for all of its company's.
    pub scope: Option<DeviceScope>,
}

impl Viewer {
    /// A viewer of every device of its company.
    pub fn new(session: SessionId, outbox: Arc<Outbox>) -> Self {
        Viewer { session, outbox, scope: None }
    }

    /// Whether it receives this device's statuses and events.
    pub fn admits(&self, device_id: &str) -> bool {
        self.scope.as_ref().is_none_or(|scope| scope.contains(device_id))
    }
}

/// What a device's viewers see: its latest map, or none (the map went blank at `hub_time_ms`).
#[derive(Debug, Clone, PartialEq)]
pub enum LivePicture {
    /// The latest map, shared with the board.
    Map(Arc<LiveMap>),
    /// The device stopped sending; viewers clear their map.
    Blank { hub_time_ms: u64 },
}

/// What a live map's event holds besides its cells and device id (the event's and the fields'
/// names, the figures): its buffer is allocated once, at the size of the whole message.
const MAP_EVENT_OVERHEAD: usize = 192;

impl LivePicture {
    /// The `pressureMap_SAToFront` event of this picture.
    pub fn encode(&self, device_id: &str) -> Bytes {
        match self {
            LivePicture::Map(map) => encode_event_sized(
                events::PRESSURE_MAP,
                PressureMapEvent::of(device_id, map),
                map.cells().len() + device_id.len() + MAP_EVENT_OVERHEAD,
            ),
            LivePicture::Blank { hub_time_ms } => encode_event(events::PRESSURE_MAP, PressureMapEvent::blank(device_id, *hub_time_ms)),
        }
    }
}

/// The live-map channel of one device.
#[derive(Debug)]
pub struct DeviceChannel {
    device_id: Arc<str>,
    company_id: Arc<str>,
    seam: Arc<ClusterSeam>,
    viewers: RwLock<Vec<Viewer>>,
    latest: Mutex<Option<LivePicture>>,
}

impl DeviceChannel {
    /// The device.
    pub fn device_id(&self) -> &Arc<str> {
        &self.device_id
    }

    /// The company owning the device.
    pub fn company_id(&self) -> &str {
        &self.company_id
    }

    /// Whether anyone watches.
    pub fn has_viewers(&self) -> bool {
        !read(&self.viewers).is_empty()
    }

    /// Publishes a live map of this hub's device to every viewer, and to the other hubs while
    /// one of them watches; never waits on a viewer.
    pub fn publish(&self, picture: LivePicture) {
        if let Some(relay) = self.seam.relay_for_owned(&self.device_id) {
            relay.map(&self.company_id, &self.device_id, &picture);
        }
        self.publish_mirrored(picture);
    }

    /// Publishes a live map that another hub's device sent (never relayed again).
    pub fn publish_mirrored(&self, picture: LivePicture) {
        let viewers = read(&self.viewers);
        if !viewers.is_empty() {
            let message = picture.encode(&self.device_id);
            for viewer in viewers.iter() {
                viewer.outbox.push_live(&self.device_id, message.clone());
            }
        }
        drop(viewers);
        *lock(&self.latest) = Some(picture);
    }

    /// Adds a viewer and hands it the latest picture. In a cluster, the owner of a device this
    /// hub does not own is told that someone here watches.
    pub fn join(&self, viewer: Viewer) {
        if !self.seam.owns(&self.device_id)
            && let Some(relay) = self.seam.relay()
        {
            relay.watching(&self.company_id, &self.device_id);
        }
        let latest = lock(&self.latest).clone();
        if let Some(picture) = latest {
            viewer.outbox.push_live(&self.device_id, picture.encode(&self.device_id));
        }
        let mut viewers = write(&self.viewers);
        viewers.retain(|v| v.session != viewer.session);
        viewers.push(viewer);
    }

    /// Removes a viewer.
    pub fn leave(&self, session: SessionId) {
        write(&self.viewers).retain(|v| v.session != session);
    }
}

/// The status channel of one company.
#[derive(Debug, Default)]
pub struct CompanyChannel {
    company_id: Arc<str>,
    seam: Arc<ClusterSeam>,
    viewers: RwLock<Vec<Viewer>>,
    /// Latest encoded `deviceConf` per device; the write lock also orders joins with publishes.
    statuses: RwLock<BTreeMap<Arc<str>, Bytes>>,
}

impl CompanyChannel {
    /// Publishes a device's status change to every viewer. A viewer whose control queue is full
    /// is closed as a slow consumer and removed.
    pub fn publish(&self, device_id: &Arc<str>, message: Bytes) {
        let mut statuses = write(&self.statuses);
        statuses.insert(device_id.clone(), message.clone());
        let mut closed = Vec::new();
        for viewer in read(&self.viewers).iter().filter(|v| v.admits(device_id)) {
            if !viewer.outbox.push_control(message.clone()) {
                closed.push(viewer.session);
            }
        }
        drop(statuses);
        if !closed.is_empty() {
            write(&self.viewers).retain(|v| !closed.contains(&v.session));
        }
    }

    /// The company.
    pub fn company_id(&self) -> &str {
        &self.company_id
    }

    /// The cluster's seam (ownership and relay).
    pub fn seam(&self) -> &ClusterSeam {
        &self.seam
    }

    /// Sends a one-off event (an alarm, a capture announcement) to every viewer without making it
    /// the device's remembered status: a viewer joining later does not receive it again. A
    /// viewer whose control queue is full is closed as a slow consumer and removed. A viewer
    /// scoped to other devices does not receive it. An event of a device this hub owns also goes
    /// to the other hubs of a cluster.
    pub fn broadcast(&self, device_id: &str, message: Bytes) {
        if let Some(relay) = self.seam.relay_for_owned(device_id) {
            relay.event(&self.company_id, device_id, &message);
        }
        self.broadcast_mirrored(device_id, message);
    }

    /// A one-off event about a device that this hub received for the company, not from the
    /// device's actor (an alarm manager's status, PCD-05): to this hub's viewers and, in a
    /// cluster, to every other hub's, whoever owns the device (issue 25).
    pub fn broadcast_received(&self, device_id: &str, message: Bytes) {
        if let Some(relay) = self.seam.relay() {
            relay.received(&self.company_id, device_id, &message);
        }
        self.broadcast_mirrored(device_id, message);
    }

    /// Sends another hub's device's one-off event to this hub's viewers (never relayed again).
    pub fn broadcast_mirrored(&self, device_id: &str, message: Bytes) {
        let mut closed = Vec::new();
        for viewer in read(&self.viewers).iter().filter(|v| v.admits(device_id)) {
            if !viewer.outbox.push_control(message.clone()) {
                closed.push(viewer.session);
            }
        }
        if !closed.is_empty() {
            write(&self.viewers).retain(|v| !closed.contains(&v.session));
        }
    }

    /// Records a status without telling anyone (initial state at start-up).
    pub fn seed(&self, device_id: &Arc<str>, message: Bytes) {
        write(&self.statuses).insert(device_id.clone(), message);
    }

    /// Adds a viewer: it first receives every device's current status, then every change.
    pub fn join(&self, viewer: Viewer) {
        let statuses = write(&self.statuses);
        for (_, message) in statuses.iter().filter(|(device_id, _)| viewer.admits(device_id)) {
            if !viewer.outbox.push_control(message.clone()) {
                return;
            }
        }
        let mut viewers = write(&self.viewers);
        viewers.retain(|v| v.session != viewer.session);
        viewers.push(viewer);
    }

    /// Removes a viewer.
    pub fn leave(&self, session: SessionId) {
        write(&self.viewers).retain(|v| v.session != session);
    }
}

/// All channels of the hub.
#[derive(Debug, Default)]
pub struct Bus {
    seam: Arc<ClusterSeam>,
    devices: RwLock<HashMap<Arc<str>, Arc<DeviceChannel>>>,
    companies: RwLock<HashMap<Arc<str>, Arc<CompanyChannel>>>,
}

impl Bus {
    /// An empty bus.
    pub fn new() -> Arc<Self> {
        Arc::new(Bus::default())
    }

    /// The device's channel, created on first use.
    pub fn device(&self, device_id: &str, company_id: &str) -> Arc<DeviceChannel> {
        if let Some(channel) = read(&self.devices).get(device_id) {
            return channel.clone();
        }
        write(&self.devices)
            .entry(Arc::from(device_id))
            .or_insert_with(|| {
                Arc::new(DeviceChannel {
                    device_id: Arc::from(device_id),
                    company_id: Arc::from(company_id),
                    seam: self.seam.clone(),
                    viewers: RwLock::new(Vec::new()),
                    latest: Mutex::new(None),
                })
            })
            .clone()
    }

    /// The company's channel, created on first use.
    pub fn company(&self, company_id: &str) -> Arc<CompanyChannel> {
        if let Some(channel) = read(&self.companies).get(company_id) {
            return channel.clone();
        }
        write(&self.companies)
            .entry(Arc::from(company_id))
            .or_insert_with(|| {
                Arc::new(CompanyChannel { company_id: Arc::from(company_id), seam: self.seam.clone(), ..CompanyChannel::default() })
            })
            .clone()
    }

    /// Ownership of devices and the cluster's hooks.
    pub fn seam(&self) -> &Arc<ClusterSeam> {
        &self.seam
    }

    /// The devices this hub does not own whose live map a session here watches (the watches the
    /// cluster renews with their owners).
    pub fn watched_elsewhere(&self) -> Vec<(Arc<str>, Arc<str>)> {
        read(&self.devices)
            .values()
            .filter(|c| c.has_viewers() && !self.seam.owns(&c.device_id))
            .map(|c| (c.company_id.clone(), c.device_id.clone()))
            .collect()
    }

    /// Removes a session from every channel.
    pub fn leave_all(&self, session: SessionId) {
        for channel in read(&self.devices).values() {
            channel.leave(session);
        }
        for channel in read(&self.companies).values() {
            channel.leave(session);
        }
    }
}

// Every critical section here is a single push, replace or retain, so a poisoned lock still
// holds consistent data; recovering keeps one panicking thread from taking the hub down.
fn read<T>(lock: &RwLock<T>) -> std::sync::RwLockReadGuard<'_, T> {
    lock.read().unwrap_or_else(|p| p.into_inner())
}

fn write<T>(lock: &RwLock<T>) -> std::sync::RwLockWriteGuard<'_, T> {
    lock.write().unwrap_or_else(|p| p.into_inner())
}

fn lock<T>(lock: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    lock.lock().unwrap_or_else(|p| p.into_inner())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::metrics::HubMetrics;
    use mat_core::machine::presence::Presence;

    fn viewer(session: SessionId) -> Viewer {
        Viewer::new(session, Outbox::new(Arc::new(HubMetrics::default())))
    }

    fn map(seq: u64) -> LivePicture {
        let mut map = LiveMap::new(1, 2, mat_protocol::CellFormat::U8, vec![seq as u8, 7]).expect("1×2");
        map.seq = seq;
        LivePicture::Map(Arc::new(map))
    }

    #[test]
    fn a_new_viewer_gets_the_latest_map_then_new_ones() {
        let bus = Bus::new();
        let channel = bus.device("d1", "c1");
        channel.publish(map(1));
        let v = viewer(1);
        channel.join(v.clone());
        assert_eq!(v.outbox.try_recv(), Ok(Some(map(1).encode("d1"))));
        channel.publish(map(2));
        assert_eq!(v.outbox.try_recv(), Ok(Some(map(2).encode("d1"))));
        channel.publish(LivePicture::Blank { hub_time_ms: 5 });
        assert_eq!(v.outbox.try_recv(), Ok(Some(LivePicture::Blank { hub_time_ms: 5 }.encode("d1"))));
        channel.leave(1);
        channel.publish(map(3));
        assert_eq!(v.outbox.try_recv(), Ok(None));
        let late = viewer(2);
        channel.join(late.clone());
        assert_eq!(late.outbox.try_recv(), Ok(Some(map(3).encode("d1"))), "the map published while nobody watched");
    }

    #[test]
    fn a_live_maps_event_fits_the_buffer_allocated_for_it() {
        let cells = vec![0xff; 64 * 64 * 2];
        let mut map = LiveMap::new(64, 64, mat_protocol::CellFormat::U16Le, cells.clone()).expect("64×64");
        (map.seq, map.device_time_ms, map.hub_time_ms) = (u64::MAX, u64::MAX, u64::MAX);
        map.presence = Presence::Present;
        let device_id = "device:⟨0123456789abcdef0123456789abcdef⟩";
        let encoded = LivePicture::Map(Arc::new(map)).encode(device_id);
        assert!(
            encoded.len() <= cells.len() + device_id.len() + MAP_EVENT_OVERHEAD,
            "{} bytes: MAP_EVENT_OVERHEAD is too small, the buffer grows",
            encoded.len()
        );
    }

    #[test]
    fn the_latest_map_is_the_boards_own_not_a_copy() {
        let channel = Bus::new().device("d1", "c1");
        let LivePicture::Map(shared) = map(1) else { unreachable!() };
        channel.publish(LivePicture::Map(shared.clone()));
        assert_eq!(Arc::strong_count(&shared), 2, "the caller's and the channel's: one map");
    }

    #[test]
    fn joining_a_company_replays_every_status_once() {
        let bus = Bus::new();
        let company = bus.company("c1");
        let (a, b): (Arc<str>, Arc<str>) = ("a".into(), "b".into());
        company.publish(&a, Bytes::from_static(b"a-offline"));
        company.publish(&a, Bytes::from_static(b"a-correct"));
        company.seed(&b, Bytes::from_static(b"b-offline"));
        let v = viewer(7);
        company.join(v.clone());
        assert_eq!(v.outbox.try_recv(), Ok(Some(Bytes::from_static(b"a-correct"))));
        assert_eq!(v.outbox.try_recv(), Ok(Some(Bytes::from_static(b"b-offline"))));
        assert_eq!(v.outbox.try_recv(), Ok(None));
        company.publish(&b, Bytes::from_static(b"b-missing"));
        assert_eq!(v.outbox.try_recv(), Ok(Some(Bytes::from_static(b"b-missing"))));
    }

    #[test]
    fn a_broadcast_reaches_current_viewers_once_and_is_not_replayed() {
        let bus = Bus::new();
        let company = bus.company("c1");
        let d: Arc<str> = "d".into();
        company.publish(&d, Bytes::from_static(b"d-correct"));
        let early = viewer(1);
        company.join(early.clone());
        assert_eq!(early.outbox.try_recv(), Ok(Some(Bytes::from_static(b"d-correct"))));
        company.broadcast("d", Bytes::from_static(b"alarmOn"));
        assert_eq!(early.outbox.try_recv(), Ok(Some(Bytes::from_static(b"alarmOn"))));
        let late = viewer(2);
        company.join(late.clone());
        assert_eq!(late.outbox.try_recv(), Ok(Some(Bytes::from_static(b"d-correct"))));
        assert_eq!(late.outbox.try_recv(), Ok(None), "the alarm is not the device's status");
    }

    #[test]
    fn a_scoped_viewer_receives_only_its_devices_statuses_and_events() {
        let bus = Bus::new();
        let company = bus.company("c1");
        let (a, b): (Arc<str>, Arc<str>) = ("a".into(), "b".into());
        company.publish(&a, Bytes::from_static(b"a-correct"));
        company.publish(&b, Bytes::from_static(b"b-correct"));
        let scoped = Viewer { scope: Some(Arc::new([a.clone()].into_iter().collect())), ..viewer(3) };
        company.join(scoped.clone());
        assert_eq!(scoped.outbox.try_recv(), Ok(Some(Bytes::from_static(b"a-correct"))));
        assert_eq!(scoped.outbox.try_recv(), Ok(None), "b's status is not replayed");
        company.publish(&b, Bytes::from_static(b"b-missing"));
        company.broadcast("b", Bytes::from_static(b"b-alarmOn"));
        assert_eq!(scoped.outbox.try_recv(), Ok(None), "nor are b's changes and alarms sent");
        company.broadcast("a", Bytes::from_static(b"a-alarmOn"));
        company.publish(&a, Bytes::from_static(b"a-missing"));
        assert_eq!(scoped.outbox.try_recv(), Ok(Some(Bytes::from_static(b"a-alarmOn"))));
        assert_eq!(scoped.outbox.try_recv(), Ok(Some(Bytes::from_static(b"a-missing"))));
    }

    #[test]
    fn the_same_channel_is_returned_for_the_same_device() {
        let bus = Bus::new();
        assert!(Arc::ptr_eq(&bus.device("d", "c"), &bus.device("d", "c")));
        assert!(Arc::ptr_eq(&bus.company("c"), &bus.company("c")));
    }
}
