/** One tag of one activity (migration 0019), written only by the activities' repository with `activities.tag_ids`. */
export interface ActivityTagsTable {
  activity_id: string;
  tag_id: string;
  organization_id: string;
}
