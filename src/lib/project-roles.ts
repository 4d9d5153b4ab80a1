/** The project role that makes a member the project's admin, as project_members stores it. */
export const PROJECT_ADMIN_ROLE = 'Administrator';
