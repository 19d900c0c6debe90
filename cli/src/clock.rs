//! The wall-clock time (UTC) as records and file names write it.

use std::time::{SystemTime, UNIX_EPOCH};

/// A UTC date and time of day.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Civil {
    pub year: i64,
    pub month: u32,
    pub day: u32,
    pub hour: u64,
    pub minute: u64,
    pub second: u64,
}

impl Civil {
    /// The time now.
    pub fn now() -> Civil {
        let secs = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |d| d.as_secs());
        Civil::from_unix(secs)
    }

    /// The date and time of a Unix time.
    pub fn from_unix(secs: u64) -> Civil {
        let days = (secs / 86_400) as i64;
        let rest = secs % 86_400;
        // Howard Hinnant's days-to-civil.
        let z = days + 719_468;
        let era = z.div_euclid(146_097);
        let doe = z.rem_euclid(146_097);
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
        let mp = (5 * doy + 2) / 153;
        let day = (doy - (153 * mp + 2) / 5 + 1) as u32;
        let month = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
        Civil {
            year: yoe + era * 400 + i64::from(month <= 2),
            month,
            day,
            hour: rest / 3600,
            minute: rest % 3600 / 60,
            second: rest % 60,
        }
    }

    /// The record's `Date` tag: `YYYY.MM.DD`.
    pub fn date_tag(&self) -> String {
        format!("{:04}.{:02}.{:02}", self.year, self.month, self.day)
    }

    /// A file-name stamp: `YYYYMMDD-HHMMSS`.
    pub fn stamp(&self) -> String {
        format!(
            "{:04}{:02}{:02}-{:02}{:02}{:02}",
            self.year, self.month, self.day, self.hour, self.minute, self.second
        )
    }
}

#[cfg(test)]
mod tests {
    use super::Civil;

    fn civil(secs: u64) -> (i64, u32, u32, u64, u64, u64) {
        let c = Civil::from_unix(secs);
        (c.year, c.month, c.day, c.hour, c.minute, c.second)
    }

    #[test]
    fn unix_times_become_civil_dates() {
        assert_eq!(civil(0), (1970, 1, 1, 0, 0, 0));
        // 2026-12-01 19:15:32 UTC.
        assert_eq!(civil(1_796_152_532), (2026, 12, 1, 19, 15, 32));
        // 2000-02-29, a leap day.
        assert_eq!(civil(951_782_400), (2000, 2, 29, 0, 0, 0));
        let c = Civil::from_unix(1_796_152_532);
        assert_eq!(c.date_tag(), "2026.12.01");
        assert_eq!(c.stamp(), "20261201-191532");
    }
}
