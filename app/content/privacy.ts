/**
 * The Information Regulator (South Africa), to whom anyone may complain about how their personal
 * information is handled (POPIA section 74). Their published contact details, checked 27 November 2026:
 * the office moved from JD House, Braamfontein, to Woodmead (the footer of inforegulator.org.za), and
 * complaints now go through the Regulator's eServices Portal (inforegulator.org.za, "How to Lodge a
 * Complaint"), with the complaints address still answering by email.
 */
export const informationRegulator = {
  name: "Information Regulator (South Africa)",
  address: "Woodmead North Office Park, 54 Maxwell Drive, Woodmead, Johannesburg, 2191",
  postal: "P.O. Box 31533, Braamfontein, Johannesburg, 2017",
  phone: "010 023 5200",
  complaintsPortal: "https://eservices.inforegulator.org.za",
  complaintsEmail: "POPIAComplaints@inforegulator.org.za",
  enquiriesEmail: "enquiries@inforegulator.org.za",
  website: "https://inforegulator.org.za",
} as const;

/** How long the shop keeps each kind of record, as the code keeps it (decision 119). */
export const retention = [
  {
    what: "Orders (what you bought, for how much and when)",
    how:
      "Five years after the order, as the Tax Administration Act asks of the shop's books. If you ask us to delete " +
      "your data, your name, email, phone and address go and the order stays without them.",
  },
  {
    what: "Your name, email, phone and address on an order",
    how: "Until the order is done and for as long as you remain a customer, or until you ask us to delete them.",
  },
  {
    what: "Messages you send us",
    how: "Until you ask us to delete them; we need them to answer you and to remember what you asked.",
  },
  {
    what: "Membership (your plan, details and the months you paid)",
    how: "While you are a member and afterwards until you ask us to delete them, so you can come back.",
  },
  {
    what: "Sign-in links and sessions",
    how:
      "Sign-in links work for 15 minutes and are removed a day later; a sign-in lasts 30 days; a link to your data " +
      "works for 30 minutes and opens it for an hour.",
  },
  {
    what: "Visits to the site",
    how: "Counted without cookies and without your IP address, under a random number your browser forgets when you close the tab.",
  },
] as const;
