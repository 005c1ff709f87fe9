export {
  analyticsIdOf,
  identifyUser,
  initAnalytics,
  resetAnalytics,
  track,
  trackPageView,
  type AnalyticsSettings,
} from './analytics';
export {
  fileTypeGroupOf,
  sizeBucketOf,
  type AnalyticsEvent,
  type AnalyticsEvents,
  type DownloadSource,
  type SizeBucket,
  type UploadFailureReason,
  type UploadMethod,
} from './analytics-events';
export {
  analyticsConsent,
  useAnalyticsConsent,
  type AnalyticsConsent,
  type AnalyticsConsentStore,
} from './consent';
